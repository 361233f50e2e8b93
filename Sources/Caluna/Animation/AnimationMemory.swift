/// What an attached animation costs its engine's memory ledger: a fixed
/// part per animation plus what its values hold (keyframe arrays by count,
/// paths by element, with the arc lengths a keyframe path measures; for a
/// transition, the snapshot of the layer's subtree its commit takes). The
/// estimate is charged before the copy is validated (validation builds the
/// keyframe track) and released when the attached copy is freed.
extension Animation {
    /// The object, its timing and bookkeeping.
    static let baseBytes = 512
    /// One layer of a transition's snapshot (a LayerState and the node).
    static let snapshotBytesPerLayer = MemoryLayout<LayerState>.stride + 512

    /// Estimated bytes of this animation and its children, attached to `layer`.
    func estimatedBytes(on layer: Layer) -> Int {
        var n = Animation.baseBytes
        if self is Transition { n += layer.subtreeLayerCount * Animation.snapshotBytesPerLayer }
        if let b = self as? BasicAnimation {
            n += (b.fromValue?.estimatedBytes ?? 0) + (b.toValue?.estimatedBytes ?? 0) + (b.byValue?.estimatedBytes ?? 0)
        }
        if let k = self as? KeyframeAnimation {
            // The values, then the track's times, functions and cubic tangents.
            n += (k.values ?? []).reduce(0) { $0 + $1.estimatedBytes * 2 }
            n += ((k.keyTimes?.count ?? 0) + (k.values?.count ?? 0)) * 2 * MemoryLayout<Double>.stride
            n += (k.timingFunctions?.count ?? 0) * 2 * MemoryLayout<TimingFunction?>.stride
            n += [k.tensionValues, k.continuityValues, k.biasValues].reduce(0) { $0 + ($1?.count ?? 0) * MemoryLayout<Double>.stride }
            if let p = k.path { n += p.storageBytes + PathSegment.estimatedBytes(of: p) }
        }
        if let g = self as? AnimationGroup {
            n += (g.animations ?? []).reduce(0) { $0 + $1.estimatedBytes(on: layer) }
        }
        return n
    }
}

extension Layer {
    /// The layer, its sublayers and masks, all the way down.
    var subtreeLayerCount: Int {
        var n = 0
        var stack: [Layer] = [self]
        while let l = stack.popLast() {
            n += 1
            stack += l.sublayers
            if let m = l.maskLayer { stack.append(m) }
        }
        return n
    }
}

extension Value {
    /// The value's own size and what it points to (strings, paths, arrays;
    /// images are charged as bitmaps on their own).
    var estimatedBytes: Int {
        switch self {
        case .string(let s): return MemoryLayout<Value>.stride + s.utf8.count
        case .transform: return MemoryLayout<Value>.stride + MemoryLayout<Transform3D>.stride
        case .path(let p): return MemoryLayout<Value>.stride + p.storageBytes
        case .array(let a): return MemoryLayout<Value>.stride + a.reduce(0) { $0 + $1.estimatedBytes }
        default: return MemoryLayout<Value>.stride
        }
    }
}
