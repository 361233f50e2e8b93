/// A JSON picture of a layer tree (what `caluna dump` prints): every property
/// of the table, then the sublayers. Colours are "#rrggbbaa", transforms 16
/// numbers in row order, points/sizes/rects objects.
extension Layer {
    public func jsonDescription(indent: String = "") -> String {
        let inner = indent + "  "
        var fields: [String] = []
        for p in LayerProperties.all(of: kind) {
            fields.append("\(inner)\(jsonString(p.key)): \(Layer.json(p.get(self)))")
        }
        let subs = sublayers.map { $0.jsonDescription(indent: inner + "  ") }
        fields.append("\(inner)\"sublayers\": " + (subs.isEmpty ? "[]" : "[\n" + subs.joined(separator: ",\n") + "\n\(inner)]"))
        return "\(indent){\n" + fields.joined(separator: ",\n") + "\n\(indent)}"
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
