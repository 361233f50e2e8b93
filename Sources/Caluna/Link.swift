/// A reference that does not keep its target alive and reads nil once the
/// target is freed: what `weak` does, without the side table a weak
/// reference gives its target. An object with a side table takes the slow
/// path on every retain and release (measured: 43 % of a property set from
/// Lua, 45 % of evaluating animated layers), so layers and engines are never
/// referenced weakly: a reference that must not keep one alive holds its
/// `link` (`@WeakLink var layer: Layer?`), and the target's deinit clears it.
///
/// Like the objects it points to, a link is used on the thread that owns the
/// engine, or by render threads while that thread waits.
public final class Link<Target: AnyObject> {
    /// The target, or nil once it was freed.
    public var target: Target? { object?.takeUnretainedValue() }
    /// The target without a reference counted (nil once it was freed): for
    /// walks that only read it while something else keeps it alive.
    var unretained: Unmanaged<Target>? { object }
    @exclusivity(unchecked) private var object: Unmanaged<Target>?

    init(_ target: Target) { object = .passUnretained(target) }

    /// Called first thing by the target's deinit.
    func clear() { object = nil }
}

/// An object others refer to through its `link` (Layer, Engine).
public protocol Linked: AnyObject {
    var link: Link<Self> { get }
}

/// A stored reference to a layer or an engine that does not keep it alive:
/// `weak` without the side table (see Link).
@propertyWrapper
public struct WeakLink<Target: Linked> {
    private var link: Link<Target>?
    public init() { link = nil }
    public init(wrappedValue: Target?) { link = wrappedValue?.link }
    public var wrappedValue: Target? {
        get { link?.target }
        set { link = newValue?.link }
    }
    /// The target unretained (Link.unretained).
    var unretained: Unmanaged<Target>? { link?.unretained }
}
