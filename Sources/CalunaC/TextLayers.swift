import Caluna
import CalunaBridge
import Glibc

// Text layers (ABI 1.7): CATextLayer's attributed string as an array of
// caluna_text_run. Its other properties go through caluna_layer_set/get.

/// caluna_text_run's layout (checked by the header at compile time).
enum TextRunLayout {
    static let size = 80
    static let text = 0, font = 8, fontSize = 16, color = 24, hasColor = 56
    static let underline = 60, strikethrough = 64, reserved = 68, kern = 72
}

/// A C string of at most the text limit, NUL-terminated, valid UTF-8.
private func runString(_ p: UnsafePointer<CChar>?, _ what: String) throws -> String {
    guard let p else { throw CalunaError(.invalidArgument, "\(what) is NULL") }
    let n = strnlen(p, DrawingContext.maximumTextBytes + 1)
    guard n <= DrawingContext.maximumTextBytes else {
        throw CalunaError(.invalidArgument, "\(what) is longer than \(DrawingContext.maximumTextBytes) bytes")
    }
    guard let s = String(validating: UnsafeRawBufferPointer(start: p, count: n), as: UTF8.self) else {
        throw CalunaError(.invalidArgument, "\(what) is not valid UTF-8")
    }
    return s
}

/// Reads run `i` of the C array.
private func readRun(_ base: UnsafeRawPointer, _ i: Int) throws -> TextRun {
    let p = base + i * TextRunLayout.size
    let what = "runs[\(i)]"
    func ptr(_ o: Int) -> UnsafePointer<CChar>? {
        UnsafePointer(bitPattern: p.loadUnaligned(fromByteOffset: o, as: UInt.self))
    }
    func flag(_ o: Int, _ name: String) throws -> Bool {
        let v = p.loadUnaligned(fromByteOffset: o, as: Int32.self)
        guard v == 0 || v == 1 else { throw CalunaError(.invalidArgument, "\(what).\(name) must be 0 or 1 (got \(v))") }
        return v == 1
    }
    var run = TextRun(try runString(ptr(TextRunLayout.text), "\(what).text"))
    if let f = ptr(TextRunLayout.font) { run.font = try runString(f, "\(what).font") }
    let size = p.loadUnaligned(fromByteOffset: TextRunLayout.fontSize, as: Double.self)
    if size != 0 { run.fontSize = size }
    if try flag(TextRunLayout.hasColor, "has_color") {
        let c = (0..<4).map { p.loadUnaligned(fromByteOffset: TextRunLayout.color + 8 * $0, as: Double.self) }
        run.foregroundColor = Color(red: c[0], green: c[1], blue: c[2], alpha: c[3])
    }
    run.underline = try flag(TextRunLayout.underline, "underline")
    run.strikethrough = try flag(TextRunLayout.strikethrough, "strikethrough")
    guard p.loadUnaligned(fromByteOffset: TextRunLayout.reserved, as: Int32.self) == 0 else {
        throw CalunaError(.invalidArgument, "\(what).reserved must be 0")
    }
    run.kern = p.loadUnaligned(fromByteOffset: TextRunLayout.kern, as: Double.self)
    return run
}

extension CEngine {
    /// The live text layer an id names.
    func textLayer(_ id: UInt64, _ name: String) throws -> Layer {
        try layer(id, name, kind: .textLayer)
    }
}

@_cdecl("caluna_text_layer_set_attributed_string")
public func caluna_text_layer_set_attributed_string(_ e: OpaquePointer?, _ layer: UInt64, _ runs: UnsafeRawPointer?,
                                                    _ count: Int32) -> Int32 {
    withEngine(e, "caluna_text_layer_set_attributed_string") { ce in
        let l = try ce.textLayer(layer, "layer")
        guard count >= 0, Int(count) <= TextRun.maximumRuns else {
            throw CalunaError(.invalidArgument, "count must be in 0…\(TextRun.maximumRuns) (got \(count))")
        }
        guard let runs else {
            guard count == 0 else { throw CalunaError(.invalidArgument, "runs is NULL but count is \(count)") }
            return try l.setAttributedString(nil, api: "runs")
        }
        try l.setAttributedString(try (0..<Int(count)).map { try readRun(runs, $0) }, api: "runs", zeroBased: true)
    }
}

@_cdecl("caluna_text_layer_get_run_count")
public func caluna_text_layer_get_run_count(_ e: OpaquePointer?, _ layer: UInt64, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    out?.pointee = 0
    return withEngine(e, "caluna_text_layer_get_run_count") { ce in
        let o = try output(out, "out")
        o.pointee = try ce.textLayer(layer, "layer").attributedString.map { try int32($0.count, "the run count") } ?? -1
    }
}

@_cdecl("caluna_text_layer_get_run")
public func caluna_text_layer_get_run(_ e: OpaquePointer?, _ layer: UInt64, _ index: Int32, _ out: UnsafeMutableRawPointer?) -> Int32 {
    out?.initializeMemory(as: UInt8.self, repeating: 0, count: TextRunLayout.size)
    return withEngine(e, "caluna_text_layer_get_run") { ce in
        guard let out else { throw CalunaError(.invalidArgument, "out is NULL (an output pointer is required)") }
        let runs = try ce.textLayer(layer, "layer").attributedString ?? []
        let run = try element(runs, index, "the layer has \(runs.count) runs")
        // Both strings in one engine-owned buffer, valid until the next call.
        let text: [UInt8] = Array(run.text.utf8) + [0]
        let font: [UInt8] = run.font.map { Array($0.utf8) + [0] } ?? []
        let buffer = try ce.arrayBuffer(text.count + font.count)
        buffer.copyMemory(from: text, byteCount: text.count)
        (buffer + text.count).copyMemory(from: font, byteCount: font.count)
        func put<T>(_ v: T, _ o: Int) { out.storeBytes(of: v, toByteOffset: o, as: T.self) }
        put(UInt(bitPattern: buffer), TextRunLayout.text)
        if !font.isEmpty { put(UInt(bitPattern: buffer + text.count), TextRunLayout.font) }
        put(run.fontSize ?? 0, TextRunLayout.fontSize)
        if let c = run.foregroundColor {
            for (k, v) in [c.red, c.green, c.blue, c.alpha].enumerated() { put(v, TextRunLayout.color + 8 * k) }
            put(Int32(1), TextRunLayout.hasColor)
        }
        put(Int32(run.underline ? 1 : 0), TextRunLayout.underline)
        put(Int32(run.strikethrough ? 1 : 0), TextRunLayout.strikethrough)
        put(run.kern, TextRunLayout.kern)
    }
}
