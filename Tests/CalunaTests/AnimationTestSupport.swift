import Foundation
import Testing
@testable import Caluna

// The animation engine driven through Engine.step/advance (DESIGN §3, §4
// "Time"; spec ch07-09 §1.15–1.18, derived scenes D7–D17, listings L8.5,
// L8.9, L8.10, L8.15, L9.1–L9.4; spec ch10-15 listing 10.6). Values are exact
// to 1e-6, the book's 3-decimal tables to 1e-3.

let valueTolerance = 1e-6
let bookTolerance = 1e-3
let timeTolerance = 1e-9

// MARK: helpers

/// One delegate callback: who, what, and the engine's clock inside it.
struct Event: Equatable, CustomStringConvertible {
    let what: String
    let time: Double
    var description: String { "\(what)@\(time)" }
}

final class EventLog {
    var events: [Event] = []
    var names: [String] { events.map(\.what) }
    var times: [Double] { events.map(\.time) }
    func timesMatch(_ expected: [Double]) -> Bool {
        times.count == expected.count && zip(times, expected).allSatisfy { abs($0 - $1) <= timeTolerance }
    }
}

/// Records didStart/didStop with the engine's media time; optional hooks run after.
final class Spy: AnimationDelegate {
    let name: String
    let log: EventLog
    weak var engine: Engine?
    var onStart: ((Animation) throws -> Void)? = nil
    var onStop: ((Animation, Bool) throws -> Void)? = nil
    /// Every animation object the delegate was handed.
    var seen: [Animation] = []

    init(_ name: String, _ log: EventLog, _ engine: Engine) {
        self.name = name
        self.log = log
        self.engine = engine
    }

    func animationDidStart(_ animation: Animation) throws {
        seen.append(animation)
        log.events.append(Event(what: "\(name) start", time: engine?.mediaTime ?? .nan))
        try onStart?(animation)
    }

    func animationDidStop(_ animation: Animation, finished: Bool) throws {
        seen.append(animation)
        log.events.append(Event(what: "\(name) stop \(finished)", time: engine?.mediaTime ?? .nan))
        try onStop?(animation, finished)
    }
}

struct Boom: Error, Equatable { let id: Int }

/// A 300×300 engine with one 10×10 layer at model position (modelX, 50),
/// committed at t = 0.
struct Scene {
    let e: Engine
    let l: Layer
    let log = EventLog()

    init(modelX: Double = 200) throws {
        e = try Engine(size: Size(300, 300))
        l = e.makeLayer()
        l.name = "L"
        l.bounds = Rect(0, 0, 10, 10)
        l.position = Point(modelX, 50)
        try e.root.addSublayer(l)
        try e.step(0)
    }

    func spy(_ name: String) -> Spy { Spy(name, log, e) }

    /// The presentation x of `layer` (default: the scene's layer).
    func x(_ layer: Layer? = nil) -> Double { (layer ?? l).presentation()?.position.x ?? .nan }
}

func moveX(from: Double? = 0, to: Double? = 100, by: Double? = nil, duration: Double = 1,
                   begin: Double = 0, fill: MediaTiming.FillMode = .removed, removedOnCompletion: Bool = true,
                   repeatCount: Double = 0, repeatDuration: Double = 0, autoreverses: Bool = false,
                   delegate: AnimationDelegate? = nil) -> BasicAnimation {
    let a = BasicAnimation()
    a.keyPath = "position.x"
    a.fromValue = from.map { .number($0) }
    a.toValue = to.map { .number($0) }
    a.byValue = by.map { .number($0) }
    a.timing.duration = duration
    a.timing.beginTime = begin
    a.timing.fillMode = fill
    a.timing.repeatCount = repeatCount
    a.timing.repeatDuration = repeatDuration
    a.timing.autoreverses = autoreverses
    a.removedOnCompletion = removedOnCompletion
    a.delegate = delegate
    return a
}

/// The book's `transform.rotation` byValue 2π spin (L8.9, L8.15, L9.1).
func spin(duration: Double = 2, repeatCount: Double = 0, delegate: AnimationDelegate? = nil) -> BasicAnimation {
    let a = BasicAnimation()
    a.keyPath = "transform.rotation"
    a.byValue = .number(2 * Double.pi)
    a.timing.duration = duration
    a.timing.repeatCount = repeatCount
    a.delegate = delegate
    return a
}

func number(_ v: Value?) -> Double {
    if case .number(let n)? = v { return n }
    return .nan
}

/// The presentation value of a numeric key path ("transform.rotation.z").
func pres(_ l: Layer, _ keyPath: String) -> Double {
    number(try? l.presentation()?.value(forKeyPath: keyPath))
}

/// Angles equal modulo 2π.
func sameAngle(_ a: Double, _ b: Double, _ tol: Double = valueTolerance) -> Bool {
    abs(remainder(a - b, 2 * Double.pi)) <= tol
}

func near(_ c: Color?, _ r: Double, _ g: Double, _ b: Double, _ a: Double = 1, _ tol: Double = valueTolerance) -> Bool {
    guard let c else { return false }
    return near(c.red, r, tol) && near(c.green, g, tol) && near(c.blue, b, tol) && near(c.alpha, a, tol)
}

let blue = Color(red: 0, green: 0, blue: 1)
let red = Color(red: 1, green: 0, blue: 0)
let green = Color(red: 0, green: 1, blue: 0)

/// The book's path (Listings 8.6/8.7/8.10/9.3): M(0,150) C(75,0)(225,300)(300,150).
let bookPath = Path([.move(Point(0, 150)), .cubic(Point(75, 0), Point(225, 300), Point(300, 150))])

func bezier(_ t: Double) -> Point {
    let u = 1 - t
    let x = 3 * u * u * t * 75 + 3 * u * t * t * 225 + t * t * t * 300
    let y = u * u * u * 150 + 3 * u * t * t * 300 + t * t * t * 150
    return Point(x, y)
}

/// A layout delegate running `body` in layoutSublayers.
final class LayoutHook: LayerDelegate {
    let body: () throws -> Void
    init(_ body: @escaping () throws -> Void) { self.body = body }
    func layoutSublayers(of layer: Layer) throws { try body() }
}
