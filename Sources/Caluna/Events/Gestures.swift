/// Pointer delivery with capture, and the two gestures the engine recognises
/// from it: tap and pan (UITapGestureRecognizer, UIPanGestureRecognizer).
///
/// Capture follows UIKit's touches: a pointer's moves, up and cancel go to
/// the layer it went down on (the hit layer then), wherever it moves.
struct PointerTrack {
    @WeakLink var target: Layer? = nil
    /// Released from capture: moves are hit-tested again.
    var released = false
    let downLocation: Point
    var lastLocation: Point
    var lastTime: Double
    /// The largest distance from the down location so far.
    var maxDistance = 0.0
    var panning = false
    /// Where the pan's translation is measured from.
    var panOrigin = Point.zero
    var velocity = Point.zero
}

extension Engine {
    /// A pointer that moves further than this from where it went down is a
    /// pan, not a tap (points; UIKit's hysteresis is about 10).
    public static let tapSlop = 10.0

    func deliverPointer(_ e: InputEvent, _ errors: inout FirstError) {
        let id = e.pointerID
        if e.kind == .pointerDown {
            // A second down without an up (a lost event) starts over.
            let t = hitLayer(at: e.location)
            input.pointers[id] = PointerTrack(target: t, downLocation: e.location, lastLocation: e.location, lastTime: e.time)
            dispatch(e, from: t, &errors)
            return
        }
        // Moves of a pointer that is up (hover) are hit-tested each time.
        guard var tr = input.pointers[id] else {
            dispatch(e, from: hitLayer(at: e.location), &errors)
            return
        }
        // A layer that left the tree no longer holds the pointer.
        let target = tr.released ? hitLayer(at: e.location) : tr.target.flatMap { isInTree($0) ? $0 : nil }
        let dt = e.time - tr.lastTime
        if dt > 0 {
            tr.velocity = Point((e.location.x - tr.lastLocation.x) / dt, (e.location.y - tr.lastLocation.y) / dt)
        }
        tr.lastLocation = e.location
        tr.lastTime = e.time
        tr.maxDistance = max(tr.maxDistance, tr.downLocation.distance(to: e.location))
        input.pointers[id] = tr
        // The pointer is forgotten after its up's handlers and gestures ran.
        defer { if e.kind == .pointerUp || e.kind == .pointerCancel { input.pointers[id] = nil } }
        dispatch(e, from: target, &errors)

        switch e.kind {
        case .pointerMove:
            if !tr.panning && tr.maxDistance > Engine.tapSlop {
                tr.panning = true
                tr.panOrigin = tr.downLocation
                input.pointers[id] = tr
                sendPan(e, .began, tr, target, &errors)
            } else if tr.panning {
                sendPan(e, .changed, tr, target, &errors)
            }
        case .pointerUp:
            if tr.panning {
                sendPan(e, .ended, tr, target, &errors)
            } else if tr.maxDistance <= Engine.tapSlop {
                var tap = e
                tap.kind = .tap
                tap.name = InputEvent.Kind.tap.rawValue
                dispatch(tap, from: target, &errors)
            }
        case .pointerCancel:
            if tr.panning { sendPan(e, .cancelled, tr, target, &errors) }
        default:
            break
        }
    }

    /// The pointer event `e` as a pan in `phase`.
    private func sendPan(_ e: InputEvent, _ phase: InputEvent.Phase, _ tr: PointerTrack, _ target: Layer?,
                         _ errors: inout FirstError) {
        var g = e
        g.kind = .pan
        g.name = InputEvent.Kind.pan.rawValue
        g.phase = phase
        g.translation = g.location - tr.panOrigin
        g.velocity = tr.velocity
        dispatch(g, from: target, &errors)
    }

    /// UIPanGestureRecognizer's setTranslation: the pan of pointer `id`
    /// reads `translation` at its current location from now on.
    public func setPanTranslation(_ translation: Point, pointer id: Int64) throws {
        guard translation.isFinite else { throw CalunaError.invalid("the translation must be finite") }
        guard var tr = input.pointers[id], tr.panning else {
            throw CalunaError.invalid("pointer \(id) is not panning")
        }
        tr.panOrigin = tr.lastLocation - translation
        input.pointers[id] = tr
    }

    /// Sends the rest of pointer `id`'s events to `layer` until it goes up;
    /// nil releases it (its events are hit-tested where they happen).
    public func capturePointer(_ id: Int64, to layer: Layer?) throws {
        guard var tr = input.pointers[id] else { throw CalunaError.invalid("pointer \(id) is not down") }
        if let l = layer {
            guard l.engine === self, !l.isPresentation else { throw CalunaError.invalid("the layer must be a model layer of this engine") }
        }
        tr.target = layer
        tr.released = layer == nil
        input.pointers[id] = tr
    }

    /// Whether pointer `id` is down (between its down and its up or cancel).
    public func isPointerDown(_ id: Int64) -> Bool { input.pointers[id] != nil }
}
