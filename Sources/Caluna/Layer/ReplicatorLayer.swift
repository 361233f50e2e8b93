/// CAReplicatorLayer (spec ch.6 §2.8): draws its sublayers instanceCount
/// times, instance k through instanceTransform^k about its centre, tinted by
/// instanceColor + k·offsets and seeing its animations k·instanceDelay
/// earlier. Drawing is in Render/ReplicatorRendering.swift.
public struct ReplicatorLayerState: Equatable {
    public var instanceCount = 1.0
    public var instanceTransform = Transform3D.identity
    public var instanceDelay = 0.0
    public var instanceColor: Color? = .white
    public var instanceRedOffset = 0.0
    public var instanceGreenOffset = 0.0
    public var instanceBlueOffset = 0.0
    public var instanceAlphaOffset = 0.0
    public var preservesDepth = false

    /// The instances drawn: instanceCount rounded down, within
    /// 0…maximumInstanceCount (the setter refuses values beyond it; the
    /// clamp keeps the conversion to Int safe whatever the state holds).
    public var count: Int {
        instanceCount >= 1 ? Int(min(instanceCount, Double(ReplicatorLayerState.maximumInstanceCount))) : 0
    }

    /// Instance k's modulation colour: instanceColor + k·offsets, each
    /// component clamped to 0…1 (spec §6 item 7). nil instanceColor is white.
    public func modulation(_ k: Int) -> Color {
        let c = instanceColor ?? .white, f = Double(k)
        return Color(red: c.red + f * instanceRedOffset, green: c.green + f * instanceGreenOffset,
                     blue: c.blue + f * instanceBlueOffset, alpha: c.alpha + f * instanceAlphaOffset).clamped
    }
}

extension ReplicatorLayerState {
    /// Each instance draws every sublayer once more: beyond this the count is
    /// refused rather than silently slow.
    public static let maximumInstanceCount = 10_000

    /// The layers one render may draw as replicator instances, summed over
    /// the frame: each replicator's instanceCount times the layers of its
    /// sublayer subtrees, nested replicators multiplying (10 × 10 × 10
    /// instances of one layer count 1,110: the inner replicators are layers
    /// too). Counted before a replicator draws anything; beyond it the
    /// render fails with invalidArgument. 1,000,000 is ~1 s of small layers
    /// in a release build and far above any real scene (listing 6.8 draws
    /// 10); it keeps 3 nested replicators of 10,000 or 60 nested replicators
    /// of 2 (2^61 − 2 layers) from hanging the host.
    public static let maximumReplicatedLayers = 1_000_000

    static func checkCount(_ n: Double) throws {
        guard n >= 0, n <= Double(maximumInstanceCount) else {
            throw CalunaError.invalid("instanceCount must be in 0…\(maximumInstanceCount) (got \(fmt(n)))")
        }
    }

    static func checkDelay(_ d: Double) throws {
        guard abs(d) <= 1e9 else { throw CalunaError.invalid("instanceDelay: \(fmt(d)) s is beyond ±1e9 s") }
    }

    static func checkOffset(_ key: String) -> (Double) throws -> Void {
        { v in guard abs(v) <= 1e6 else { throw CalunaError.invalid("\(key): \(fmt(v)) is beyond ±1e6") } }
    }
}

extension LayerProperties {
    static let replicatorLayer: [LayerProperty] = [
        .specialised("instanceCount", \.replicator.instanceCount, animatable: true, check: ReplicatorLayerState.checkCount),
        .specialised("instanceTransform", \.replicator.instanceTransform, animatable: true),
        .specialised("instanceDelay", \.replicator.instanceDelay, animatable: true, check: ReplicatorLayerState.checkDelay),
        .specialised("instanceColor", \.replicator.instanceColor, animatable: true),
        .specialised("instanceRedOffset", \.replicator.instanceRedOffset, animatable: true,
                     check: ReplicatorLayerState.checkOffset("instanceRedOffset")),
        .specialised("instanceGreenOffset", \.replicator.instanceGreenOffset, animatable: true,
                     check: ReplicatorLayerState.checkOffset("instanceGreenOffset")),
        .specialised("instanceBlueOffset", \.replicator.instanceBlueOffset, animatable: true,
                     check: ReplicatorLayerState.checkOffset("instanceBlueOffset")),
        .specialised("instanceAlphaOffset", \.replicator.instanceAlphaOffset, animatable: true,
                     check: ReplicatorLayerState.checkOffset("instanceAlphaOffset")),
        .specialised("preservesDepth", \.replicator.preservesDepth, animatable: false),
    ]
}
