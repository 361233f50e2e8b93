import CCairo
import Glibc
import Testing
@testable import Caluna

// Cached effects (EffectCache.swift): a shadow's blurred mask is reused for
// the same silhouette, σ and size, in a later frame or at a whole-pixel
// offset, and the bytes are those of a blur done afresh; the faster blur
// copies repeated rows and columns exactly.

/// `n` cards 40×30 with rounded corners and a σ = 6 shadow, `step` points apart
/// (no shadow reaches an edge of the 300×100 frame).
private func cards(_ engine: Engine, count n: Int, step: Double) throws -> [Layer] {
    engine.root.backgroundColor = .white
    return try (0..<n).map { i in
        let card = try engine.createLayer()
        card.frame = Rect(40 + Double(i) * step, 30, 40, 30)
        card.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.9, alpha: 1)
        card.cornerRadius = 6
        card.shadowOpacity = 0.6
        card.shadowRadius = 6
        try engine.root.addSublayer(card)
        return card
    }
}

private func change(_ engine: Engine, _ body: () -> Void) throws {
    try engine.transaction.begin()
    engine.transaction.disableActions = true
    body()
    try engine.transaction.commit()
}

@Test func identicalShadowsAtWholePixelOffsetsAreBlurredOnce() throws {
    let e = try Engine(size: Size(300, 100))
    _ = try cards(e, count: 4, step: 60)
    let frame = try e.render()
    #expect(e.stats.effectCacheMisses == 1 && e.stats.effectCacheHits == 3)
    #expect(sameBytes(frame, try e.renderWithoutEffectCache()))
}

@Test func colourOpacityAndOffsetChangesReuseTheMaskAndRadiusDoesNot() throws {
    let e = try Engine(size: Size(300, 100))
    let c = try cards(e, count: 4, step: 60.5)    // half-pixel steps: two silhouettes
    _ = try e.render()
    #expect(e.stats.effectCacheMisses == 2 && e.stats.effectCacheHits == 2)
    try change(e) {
        c[0].shadowColor = Color(red: 1, green: 0, blue: 0, alpha: 1)
        c[1].shadowOpacity = 0.25
        c[2].shadowOffset = Size(3, 5)
    }
    var frame = try e.render()
    #expect(e.stats.effectCacheMisses == 0 && e.stats.effectCacheHits == 4)
    #expect(sameBytes(frame, try e.renderWithoutEffectCache()))
    try change(e) { c[3].shadowRadius = 7 }
    frame = try e.render()
    #expect(e.stats.effectCacheMisses == 1 && e.stats.effectCacheHits == 3)
    #expect(sameBytes(frame, try e.renderWithoutEffectCache()))
}

@Test func aMaskIsFoundOnlyForTheSameSilhouetteBytes() throws {
    func silhouette(_ draw: (OpaquePointer) -> Void) -> OpaquePointer {
        let s = cairo_image_surface_create(CAIRO_FORMAT_A8, 20, 20)!
        let cr = cairo_create(s)!
        draw(cr)
        cairo_destroy(cr)
        return s
    }
    let a = silhouette { cairo_rectangle($0, 2, 2, 10, 10); cairo_fill($0) }
    let b = silhouette { cairo_rectangle($0, 2, 2, 10, 11); cairo_fill($0) }
    let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, 30, 30)!
    defer { for s in [a, b, mask] { cairo_surface_destroy(s) } }
    let cache = EffectCache()
    let key = EffectCache.key(a, sigma: 2, dx: -5, dy: -5, w: 30, h: 30)
    cache.insert(key, silhouette: a, mask: mask, memory: nil)
    // A hit is the kept mask with a reference for the caller (a band may
    // still paint it after another replaces the entry).
    let hit = cache.mask(key, silhouette: a)
    #expect(hit == mask)
    #expect(cairo_surface_get_reference_count(mask) == 3)
    hit.map { cairo_surface_destroy($0) }
    // The same key (as if the hashes collided) with other bytes is a miss.
    #expect(cache.mask(key, silhouette: b) == nil)
    #expect(EffectCache.key(b, sigma: 2, dx: -5, dy: -5, w: 30, h: 30) != key)
    #expect(EffectCache.key(a, sigma: 2.5, dx: -5, dy: -5, w: 30, h: 30) != key)
}

@Test func masksPastTheBudgetThatARenderDidNotUseAreDropped() throws {
    let e = try Engine(size: Size(300, 100))
    e.effectCache.budget = 20_000
    let c = try cards(e, count: 1, step: 0)
    for r in 1...8 {
        try change(e) { c[0].shadowRadius = Double(r) }
        _ = try e.render()
        #expect(e.effectCache.count >= 1 && e.effectCache.bytes <= 20_000, "radius \(r): \(e.effectCache.bytes) bytes")
    }
    #expect(e.effectCache.count < 8, "older masks went")
    _ = try e.render()
    #expect(e.stats.effectCacheHits == 1, "the last render's mask stayed")
}

/// The blur copies a row (column) like the previous one instead of blurring
/// it again: random boxes, rounded boxes and discs give the same bytes as
/// blurring every line, for both methods.
@Test func repeatedRowsAndColumnsBlurExactlyAsBlurredAgain() {
    var rng = SeededRandom(seed: 2026)
    for trial in 0..<120 {
        let sigma = rng.pick(blurSigmas)
        let x = rng.double(0, 20), y = rng.double(0, 20), w = rng.double(4, 40), h = rng.double(4, 40)
        let kind = rng.below(3)
        let draw: (OpaquePointer) -> Void = { cr in
            switch kind {
            case 0: cairo_rectangle(cr, x.rounded(), y.rounded(), w.rounded(), h.rounded())
            case 1:
                let k = min(w, h) / 3
                cairo_new_sub_path(cr)
                cairo_arc(cr, x + w - k, y + k, k, -Double.pi / 2, 0)
                cairo_arc(cr, x + w - k, y + h - k, k, 0, Double.pi / 2)
                cairo_arc(cr, x + k, y + h - k, k, Double.pi / 2, Double.pi)
                cairo_arc(cr, x + k, y + k, k, Double.pi, 3 * Double.pi / 2)
                cairo_close_path(cr)
            default: cairo_arc(cr, x + w / 2, y + h / 2, min(w, h) / 2, 0, 2 * Double.pi)
            }
            cairo_fill(cr)
        }
        let source = AlphaPlane(64, 64, at: (0, 0), draw: draw)
        let m = GaussianBlur.margin(sigma: sigma)
        for method in [GaussianBlur.Method.exact, .cosines] {
            let fast = AlphaPlane(64 + 2 * m, 64 + 2 * m, at: (-m, -m))
            let plain = AlphaPlane(64 + 2 * m, 64 + 2 * m, at: (-m, -m))
            GaussianBlur.blur(source.plane, into: fast.plane, sigma: sigma, method: method)
            GaussianBlur.blur(source.plane, into: plain.plane, sigma: sigma, method: method, reusesRepeats: false)
            #expect(fast.maxDifference(plain) == 0, "trial \(trial): shape \(kind), σ \(sigma), \(method)")
        }
    }
}
