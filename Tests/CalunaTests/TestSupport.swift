import Testing
@testable import Caluna

// Shared helpers: float tolerances (spec §6 rule 7: 1e-9 for stored values,
// 1e-6 for derived geometry), error codes, pixels and the listing-1.1 scene.

let storedTolerance = 1e-9
let derivedTolerance = 1e-6

func near(_ a: Double, _ b: Double, _ tol: Double = storedTolerance) -> Bool {
    abs(a - b) <= tol
}

func near(_ a: Point?, _ b: Point, _ tol: Double = storedTolerance) -> Bool {
    guard let a else { return false }
    return near(a.x, b.x, tol) && near(a.y, b.y, tol)
}

func near(_ a: Size, _ b: Size, _ tol: Double = storedTolerance) -> Bool {
    near(a.width, b.width, tol) && near(a.height, b.height, tol)
}

func near(_ a: Rect, _ b: Rect, _ tol: Double = storedTolerance) -> Bool {
    near(a.origin, b.origin, tol) && near(a.size, b.size, tol)
}

func near(_ a: AffineTransform, _ b: AffineTransform, _ tol: Double = storedTolerance) -> Bool {
    zip([a.a, a.b, a.c, a.d, a.tx, a.ty], [b.a, b.b, b.c, b.d, b.tx, b.ty]).allSatisfy { near($0, $1, tol) }
}

func near(_ a: Transform3D, _ b: Transform3D, _ tol: Double = storedTolerance) -> Bool {
    zip(a.elements, b.elements).allSatisfy { near($0, $1, tol) }
}

/// The code of the CalunaError `body` throws; nil if it returns or throws
/// something else.
func errorCode<T>(_ body: () throws -> T) -> CalunaError.Code? {
    do {
        _ = try body()
        return nil
    } catch let e as CalunaError {
        return e.code
    } catch {
        return nil
    }
}

/// "bounds.size.width" → ["bounds", "size", "width"], as Value's component API takes it.
func path(_ s: String) -> [Substring] { s.split(separator: ".") }

// MARK: colours (spec §0, UIKit's 8-bit values)

let uiLightGray = Color(r8: 170, g8: 170, b8: 170)
let uiBlue = Color(r8: 0, g8: 0, b8: 255)
let uiRed = Color(r8: 255, g8: 0, b8: 0)
let uiGreen = Color(r8: 0, g8: 255, b8: 0)
let uiWhite = Color.white
let uiBlack = Color.black

// MARK: pixels

struct RGBA: Equatable, CustomStringConvertible {
    var r, g, b, a: Int
    init(_ r: Int, _ g: Int, _ b: Int, _ a: Int = 255) { self.r = r; self.g = g; self.b = b; self.a = a }
    var description: String { "(\(r), \(g), \(b), \(a))" }

    static let lightGray = RGBA(170, 170, 170)
    static let white = RGBA(255, 255, 255)
    static let blue = RGBA(0, 0, 255)
    static let red = RGBA(255, 0, 0)
    static let green = RGBA(0, 255, 0)
    static let black = RGBA(0, 0, 0)
    static let clear = RGBA(0, 0, 0, 0)

    /// Within ±tol per channel (spec §6 rule 4 uses ±3).
    func matches(_ o: RGBA, tol: Int = 3) -> Bool {
        abs(r - o.r) <= tol && abs(g - o.g) <= tol && abs(b - o.b) <= tol && abs(a - o.a) <= tol
    }
}

/// The straight-alpha pixel at device pixel (x, y); a sentinel outside the image.
func px(_ image: Image, _ x: Int, _ y: Int) -> RGBA {
    guard let p = image.pixel(x: x, y: y) else { return RGBA(-1, -1, -1, -1) }
    return RGBA(Int(p.r), Int(p.g), Int(p.b), Int(p.a))
}

/// Every byte of an image in one format, for byte-exact comparisons.
func bytes(of image: Image, format: PixelFormat = .rgba8Premultiplied) -> [UInt8] {
    let stride = image.width * 4
    var out = [UInt8](repeating: 0, count: stride * image.height)
    out.withUnsafeMutableBytes { image.copy(into: $0.baseAddress!, stride: stride, format: format) }
    return out
}

// MARK: scenes

/// Listing 1.1 (spec §2): R 300×300 light grey; L frame (50,50,200,200) white
/// in R; B frame (50,50,100,100) blue in L.
struct Listing11 {
    let engine: Engine
    let R: Layer
    let L: Layer
    let B: Layer

    init() throws {
        engine = try Engine(size: Size(300, 300))
        R = engine.root
        R.backgroundColor = uiLightGray
        L = engine.makeLayer()
        L.name = "L"
        L.frame = Rect(50, 50, 200, 200)
        L.backgroundColor = uiWhite
        try R.addSublayer(L)
        B = engine.makeLayer()
        B.name = "B"
        B.frame = Rect(50, 50, 100, 100)
        B.backgroundColor = uiBlue
        try L.addSublayer(B)
    }
}

/// A layer of `engine` with a frame, a colour and a name, added to `parent`.
@discardableResult
func addLayer(_ engine: Engine, to parent: Layer, frame: Rect, color: Color? = nil, name: String? = nil) throws -> Layer {
    let l = engine.makeLayer()
    l.frame = frame
    l.backgroundColor = color
    l.name = name
    try parent.addSublayer(l)
    return l
}
