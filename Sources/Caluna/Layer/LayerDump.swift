/// A JSON picture of a layer tree (what `caluna dump` prints): every property
/// of the table, then the sublayers. Colours are "#rrggbbaa", transforms 16
/// numbers in row order, points/sizes/rects objects.
extension Layer {
    /// Indentation stops growing below this many levels of two spaces (32
    /// layers deep), so the text of a deep tree stays proportional to its
    /// layers instead of to their depth.
    public static let maximumDumpIndent = 64

    public func jsonDescription() -> String {
        var text = ""
        writeJSON(to: &text)
        return text
    }

    /// Writes the picture without recursion and without building a string
    /// per subtree, so a tree 1024 layers deep costs the size of its text.
    public func writeJSON<Out: TextOutputStream>(to out: inout Out) {
        func pad(_ level: Int) -> String { String(repeating: "  ", count: min(level, Layer.maximumDumpIndent)) }
        var open: [(sublayers: [Layer], level: Int, next: Int)] = []
        func begin(_ layer: Layer, _ level: Int) {
            let inner = pad(level + 1)
            out.write(pad(level) + "{\n")
            for p in LayerProperties.all(of: layer.kind) {
                out.write("\(inner)\(jsonString(p.key)): \(Layer.json(p.get(layer))),\n")
            }
            out.write(inner + "\"sublayers\": ")
            if layer.sublayers.isEmpty {
                out.write("[]\n" + pad(level) + "}")
            } else {
                out.write("[\n")
                open.append((layer.sublayers, level, 0))
            }
        }
        begin(self, 0)
        while var top = open.popLast() {
            guard top.next < top.sublayers.count else {
                out.write("\n" + pad(top.level + 1) + "]\n" + pad(top.level) + "}")
                continue
            }
            if top.next > 0 { out.write(",\n") }
            top.next += 1
            open.append(top)
            begin(top.sublayers[top.next - 1], top.level + 2)
        }
    }

    static func json(_ v: Value) -> String {
        func n(_ d: Double) -> String { d.isFinite ? fmt(d) : "null" }
        switch v {
        case .null: return "null"
        case .number(let d): return n(d)
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return jsonString(s)
        case .point(let p): return "{\"x\": \(n(p.x)), \"y\": \(n(p.y))}"
        case .size(let s): return "{\"width\": \(n(s.width)), \"height\": \(n(s.height))}"
        case .rect(let r):
            return "{\"x\": \(n(r.origin.x)), \"y\": \(n(r.origin.y)), \"width\": \(n(r.size.width)), \"height\": \(n(r.size.height))}"
        case .color(let c): return jsonString(c.hex)
        case .transform(let t): return "[" + t.elements.map(n).joined(separator: ", ") + "]"
        case .image(let i): return "{\"image\": {\"width\": \(i.width), \"height\": \(i.height)}}"
        case .path(let p): return "{\"path\": {\"elements\": \(p.elements.count)}}"
        case .array(let a): return "[" + a.map(json).joined(separator: ", ") + "]"
        }
    }
}

func jsonString(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case let c where c.value < 0x20:
            let h = String(c.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
        default: out.unicodeScalars.append(u)
        }
    }
    return out + "\""
}
