import Glibc

/// The properties of a CATiledLayer (chapter 6.12): the layer draws its
/// content on demand, one tile at a time, through its normal draw path (the
/// draw callback or the delegate's drawLayer), only for the tiles the render
/// shows (TiledRendering.swift).
public struct TiledLayerState: Equatable {
    /// The tile size in **pixels** of the tile's level (the book: "tileSize是以像素为单位，
    /// 而不是点"): with contentsScale 2 a default tile covers 128×128 points.
    public var tileSize = Size(256, 256)
    /// Levels at 1×, ½×, ¼× … of contentsScale (Apple's levelsOfDetail).
    public var levelsOfDetail = 1.0
    /// Extra magnified levels at 2×, 4× … (Apple's levelsOfDetailBias).
    public var levelsOfDetailBias = 0.0
    /// Seconds a newly drawn tile takes to fade in, on the engine's clock;
    /// 0 shows it at once. caluna's per-layer form of +fadeDuration.
    public var fadeDuration = 0.25

    /// Tile sizes beyond this many pixels per side are refused.
    public static let maximumTileSide = 4096.0
    /// At most this many levels either way.
    public static let maximumLevels = 16.0

    /// The level (a power of two of contentsScale) tiles are drawn at for
    /// `pixelsPerPoint` device pixels per layer point: the smallest level
    /// that is at least as sharp, within −(levelsOfDetail − 1)…bias.
    func level(pixelsPerPoint: Double, contentsScale: Double) -> Int {
        let lowest = -Int(levelsOfDetail) + 1, highest = Int(levelsOfDetailBias)
        let wanted = log2(pixelsPerPoint / contentsScale) - 1e-9
        guard wanted.isFinite else { return wanted > 0 ? highest : lowest }
        return min(max(Int(max(min(wanted.rounded(.up), 64), -64)), lowest), highest)
    }

    static func checkTileSize(_ s: Size) throws {
        for v in [s.width, s.height] where !(v >= 1 && v <= maximumTileSide) {
            throw CalunaError.invalid("tileSize must be 1…\(fmt(maximumTileSide)) pixels per side (got \(s))")
        }
    }

    static func checkCount(_ key: String, _ v: Double, from lo: Double) throws {
        guard v >= lo, v <= maximumLevels, v.rounded() == v else {
            throw CalunaError.invalid("\(key) must be a whole number in \(fmt(lo))…\(fmt(maximumLevels)) (got \(fmt(v)))")
        }
    }

    static func checkFade(_ v: Double) throws {
        guard v >= 0, v <= 3600 else { throw CalunaError.invalid("fadeDuration must be 0…3600 seconds (got \(fmt(v)))") }
    }
}

extension LayerProperties {
    static let tiledLayer: [LayerProperty] = [
        .specialised("tileSize", \.tiled.tileSize, animatable: false, check: TiledLayerState.checkTileSize),
        .specialised("levelsOfDetail", \.tiled.levelsOfDetail, animatable: false) {
            try TiledLayerState.checkCount("levelsOfDetail", $0, from: 1)
        },
        .specialised("levelsOfDetailBias", \.tiled.levelsOfDetailBias, animatable: false) {
            try TiledLayerState.checkCount("levelsOfDetailBias", $0, from: 0)
        },
        .specialised("fadeDuration", \.tiled.fadeDuration, animatable: false, check: TiledLayerState.checkFade),
    ]
}

extension Layer {
    /// Tiled and pixel buffer layers draw at render time, so a display (a
    /// setNeedsDisplay reaching the display pass) only marks what the next
    /// render redraws: the tiles meeting `dirty` (nil: all), or the frame.
    /// True when the layer was one of them.
    func displayAtRenderTime(dirty: Rect?) -> Bool {
        switch kind {
        case .tiledLayer: (kindCache as? TileCache)?.invalidate(dirty)
        case .pixelBufferLayer: pixelBufferStore.needsFrame = true
        default: return false
        }
        // What the next render draws changed, though no property did.
        presentationLayer?.renderChanged()
        return true
    }
}
