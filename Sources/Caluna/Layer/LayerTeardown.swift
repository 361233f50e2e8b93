import Glibc

/// Freeing a layer tree without recursion. Swift frees a layer's sublayers
/// from its deinit, so a chain at the depth limit would nest one deinit (a
/// few hundred bytes of native stack) per level: a host thread with a small
/// stack would crash destroying an engine. Instead a layer's deinit hands its
/// sublayers, listed changed children, mask and presentation copy to this
/// thread's teardown list, and
/// the outermost deinit frees the list one layer at a time.
final class LayerTeardown {
    private var pending: [Layer] = []

    /// Called by `Layer.deinit` with what the dying layer owns; takes it (the
    /// layer's references are cleared here, before anything is freed).
    static func release(_ sublayers: inout [Layer], _ listed: inout [Layer], _ mask: inout Layer?,
                        _ presentation: inout Layer?) {
        if let p = pthread_getspecific(teardownKey) {
            // A deinit inside the outermost one's loop: queue and return.
            let t = Unmanaged<LayerTeardown>.fromOpaque(p).takeUnretainedValue()
            t.take(&sublayers, &listed, &mask, &presentation)
            return
        }
        let t = LayerTeardown()
        t.take(&sublayers, &listed, &mask, &presentation)
        pthread_setspecific(teardownKey, Unmanaged.passUnretained(t).toOpaque())
        defer { pthread_setspecific(teardownKey, nil) }
        // Dropping each one may free it; its deinit queues what it owned.
        while t.pending.popLast() != nil {}
    }

    private func take(_ sublayers: inout [Layer], _ listed: inout [Layer], _ mask: inout Layer?,
                      _ presentation: inout Layer?) {
        pending.append(contentsOf: sublayers)
        sublayers = []
        pending.append(contentsOf: listed)
        listed = []
        if let m = mask { pending.append(m); mask = nil }
        if let p = presentation { pending.append(p); presentation = nil }
    }
}

/// This thread's teardown in progress, if any.
private let teardownKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()
