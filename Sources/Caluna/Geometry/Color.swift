/// An sRGB colour with straight (non-premultiplied) alpha, components 0…1.
/// Core Animation's CGColor. No colour management is applied anywhere.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red, green, blue, alpha: Double
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    /// From 8-bit components.
    public init(r8: Int, g8: Int, b8: Int, a8: Int = 255) {
        self.init(red: Double(r8) / 255, green: Double(g8) / 255, blue: Double(b8) / 255, alpha: Double(a8) / 255)
    }
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)

    public var isFinite: Bool { red.isFinite && green.isFinite && blue.isFinite && alpha.isFinite }

    /// Components clamped to 0…1 (what is drawn; the stored value is kept).
    public var clamped: Color {
        func c(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
        return Color(red: c(red), green: c(green), blue: c(blue), alpha: c(alpha))
    }

    /// "#rrggbbaa", rounded to 8 bits per channel.
    public var hex: String {
        let cl = clamped
        let bytes = [cl.red, cl.green, cl.blue, cl.alpha].map { Int(($0 * 255).rounded()) }
        let digits = Array("0123456789abcdef")
        return "#" + bytes.map { String([digits[$0 >> 4], digits[$0 & 15]]) }.joined()
    }
    public var description: String { hex }

    /// Parses "#rgb", "#rgba", "#rrggbb", "#rrggbbaa" or a CSS colour name
    /// (case-insensitive; "transparent" and "clear" are clear). Nil if neither.
    public init?(parsing text: String) {
        let s = text.lowercased()
        if s.hasPrefix("#") {
            let hex = Array(s.utf8.dropFirst())
            func nibble(_ c: UInt8) -> Int? {
                switch c {
                case 48...57: return Int(c) - 48
                case 97...102: return Int(c) - 87
                default: return nil
                }
            }
            let n = hex.compactMap(nibble)
            guard n.count == hex.count else { return nil }
            switch n.count {
            case 3, 4:
                let a = n.count == 4 ? n[3] * 17 : 255
                self.init(r8: n[0] * 17, g8: n[1] * 17, b8: n[2] * 17, a8: a)
            case 6, 8:
                let a = n.count == 8 ? n[6] * 16 + n[7] : 255
                self.init(r8: n[0] * 16 + n[1], g8: n[2] * 16 + n[3], b8: n[4] * 16 + n[5], a8: a)
            default:
                return nil
            }
            return
        }
        if s == "clear" || s == "transparent" { self = .clear; return }
        guard let rgb = cssColorNames[s] else { return nil }
        self.init(r8: (rgb >> 16) & 255, g8: (rgb >> 8) & 255, b8: rgb & 255)
    }
}
