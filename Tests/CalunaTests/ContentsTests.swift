import Testing
@testable import Caluna

/// Contents placement (gravity, nine-slice), display and
/// dirty rectangles, masks and memory accounting, in Swift.
@Suite struct ContentsTests {
    @Test func gravityPlacesContentAsTheTableSays() {
        let b = Rect(0, 0, 200, 100), c = Size(20, 10)
        #expect(ContentsGravity.center.rect(for: c, in: b) == Rect(90, 45, 20, 10))
        #expect(ContentsGravity.top.rect(for: c, in: b) == Rect(90, 0, 20, 10))
        #expect(ContentsGravity.bottom.rect(for: c, in: b) == Rect(90, 90, 20, 10))
        #expect(ContentsGravity.left.rect(for: c, in: b) == Rect(0, 45, 20, 10))
        #expect(ContentsGravity.right.rect(for: c, in: b) == Rect(180, 45, 20, 10))
        #expect(ContentsGravity.topLeft.rect(for: c, in: b) == Rect(0, 0, 20, 10))
        #expect(ContentsGravity.topRight.rect(for: c, in: b) == Rect(180, 0, 20, 10))
        #expect(ContentsGravity.bottomLeft.rect(for: c, in: b) == Rect(0, 90, 20, 10))
        #expect(ContentsGravity.bottomRight.rect(for: c, in: b) == Rect(180, 90, 20, 10))
        #expect(ContentsGravity.resize.rect(for: c, in: b) == b)
        let fit = ContentsGravity.resizeAspect.rect(for: Size(100, 150), in: Rect(0, 0, 200, 200))
        #expect(abs(fit.minX - 100.0 / 3) < 1e-9 && abs(fit.width - 400.0 / 3) < 1e-9 && fit.minY == 0 && fit.height == 200)
        #expect(ContentsGravity.resizeAspectFill.rect(for: Size(100, 150), in: Rect(0, 0, 200, 200))
                == Rect(0, -50, 200, 300))
        // bounds.origin does not move contents in the layer's own space.
        #expect(ContentsGravity.topLeft.rect(for: c, in: Rect(5, 7, 200, 100)) == Rect(5, 7, 20, 10))
    }

    @Test func ninePatchesKeepCornersAndScaleThemDownWhenSmall() throws {
        let layer = Layer()
        layer.contentsCenter = Rect(0.25, 0.25, 0.5, 0.5)
        let cr = try #require(Image.test(width: 1, height: 1))
        let c = Compositor(target: cr, scale: 1)
        defer { c.finish() }
        let patches = c.ninePatches(layer, source: Rect(0, 0, 40, 40), dest: Rect(0, 0, 200, 60))
        #expect(patches.count == 9)
        #expect(patches[0].0 == Rect(0, 0, 10, 10) && patches[0].1 == Rect(0, 0, 10, 10))
        #expect(patches[4].0 == Rect(10, 10, 20, 20) && patches[4].1 == Rect(10, 10, 180, 40))
        #expect(patches[8].1 == Rect(190, 50, 10, 10))
        // D9: a destination smaller than both fixed parts scales them down together.
        let small = c.ninePatches(layer, source: Rect(0, 0, 40, 40), dest: Rect(0, 0, 10, 10))
        #expect(small.first?.1 == Rect(0, 0, 5, 5))
        #expect(small.count == 4)
        // The default centre is one patch.
        layer.contentsCenter = Rect(0, 0, 1, 1)
        #expect(c.ninePatches(layer, source: Rect(0, 0, 40, 40), dest: Rect(0, 0, 200, 60)).count == 1)
    }

    @Test func displayDrawsOnlyWhenAskedAndDirtyRectsRedrawOnlyTheirPixels() throws {
        let engine = try Engine(size: Size(100, 100))
        let layer = engine.makeLayer()
        layer.frame = Rect(0, 0, 50, 40)
        layer.contentsScale = 2
        var clips: [Rect] = []
        layer.drawHandler = { _, ctx in
            clips.append(ctx.initialClip)
            try ctx.setFillColor(Color(red: 1, green: 0, blue: 0))
            try ctx.fillRect(Rect(0, 0, 50, 40))
        }
        try engine.root.addSublayer(layer)
        _ = try engine.render()
        #expect(clips.isEmpty)
        try layer.display()
        let store = try #require(layer.contents)
        #expect(store.width == 100 && store.height == 80 && store.isBackingStore)
        _ = try engine.render()
        layer.setNeedsDisplay(in: Rect(10.25, 10, 5, 5))
        _ = try engine.render()
        #expect(clips.count == 2)
        #expect(clips[1] == Rect(10, 10, 5.5, 5))        // aligned out to whole pixels
        #expect(layer.contents === store)                 // redrawn in place
        #expect(engine.stats.dirtyPixels == 11 * 10)
        #expect(engine.stats.drawCallbacks == 1)
        #expect(engine.stats.backingStoreBytes == 100 * 80 * 4)
        // A whole redraw makes a new store (F49).
        layer.setNeedsDisplay()
        _ = try engine.render()
        #expect(layer.contents !== store)
        // No drawer: display clears contents (D24).
        layer.drawHandler = nil
        try layer.display()
        #expect(layer.contents == nil)
    }

    @Test func masksRefuseIllegalTrees() throws {
        let engine = try Engine(size: Size(100, 100))
        let owner = engine.makeLayer(), mask = engine.makeLayer(), child = engine.makeLayer()
        try engine.root.addSublayer(owner)
        try owner.addSublayer(child)
        try owner.setMask(mask)
        #expect(mask.superlayer == nil && mask.maskOwner === owner && owner.mask === mask)
        #expect(mask.rootAncestor === engine.root)
        #expect(throws: CalunaError.self) { try owner.setMask(child) }          // has a superlayer
        #expect(throws: CalunaError.self) { try child.setMask(mask) }          // masks another layer
        #expect(throws: CalunaError.self) { try child.setMask(owner) }         // an ancestor
        #expect(throws: CalunaError.self) { try owner.setMask(owner) }
        #expect(throws: CalunaError.self) { try child.addSublayer(mask) }      // a mask is no sublayer
        try owner.setMask(nil)
        #expect(mask.maskOwner == nil)
        try child.addSublayer(mask)
    }

    @Test func propertyTableChecksContentsAndEffectValues() throws {
        let l = Layer()
        #expect(throws: CalunaError.self) { try l.setValue(.string("middle"), forKeyPath: "contentsGravity") }
        #expect(throws: CalunaError.self) { try l.setValue(.string("cubic"), forKeyPath: "magnificationFilter") }
        #expect(throws: CalunaError.self) { try l.setValue(.number(0), forKeyPath: "contentsScale") }
        #expect(throws: CalunaError.self) { try l.setValue(.number(-1), forKeyPath: "cornerRadius") }
        #expect(throws: CalunaError.self) { try l.setValue(.number(-1), forKeyPath: "borderWidth") }
        #expect(throws: CalunaError.self) { try l.setValue(.number(16), forKeyPath: "maskedCorners") }
        #expect(throws: CalunaError.self) { try l.setValue(.number(.nan), forKeyPath: "shadowOpacity") }
        try l.setValue(.string("resizeAspect"), forKeyPath: "contentsGravity")
        #expect(l.contentsGravity == .resizeAspect)
        try l.setValue(.number(5), forKeyPath: "maskedCorners")
        #expect(l.maskedCorners == [.minXMinY, .minXMaxY])
        #expect(try l.value(forKeyPath: "shadowOffset") == .size(Size(0, -3)))
        #expect(try l.value(forKeyPath: "shadowRadius") == .number(3))
        #expect(try l.value(forKeyPath: "borderColor") == .color(.black))
        #expect(try l.value(forKeyPath: "contentsRect") == .rect(Rect(0, 0, 1, 1)))
        #expect(throws: CalunaError.self) { try l.value(forKeyPath: "mask") }
    }
}

extension Image {
    static func test(width: Int, height: Int) -> Image? { try? Image(width: width, height: height) }
}
