import Testing
@testable import Caluna

// Pure CAMediaTiming arithmetic (spec ch07-09 §1.15–1.16, DESIGN §4 "Time"):
// active local time t = (tp − beginTime) × speed + timeOffset, then repeats,
// autoreverse and fill. No engine involved.

private func timing(duration: Double = 1, begin: Double = 0, speed: Double = 1, offset: Double = 0,
                    repeatCount: Double = 0, repeatDuration: Double = 0, autoreverses: Bool = false,
                    fill: MediaTiming.FillMode = .removed) -> MediaTiming {
    var m = MediaTiming()
    m.duration = duration
    m.beginTime = begin
    m.speed = speed
    m.timeOffset = offset
    m.repeatCount = repeatCount
    m.repeatDuration = repeatDuration
    m.autoreverses = autoreverses
    m.fillMode = fill
    return m
}

/// Samples `m` at parent time `tp` with its own duration as the resolved one.
private func at(_ m: MediaTiming, _ tp: Double, endInclusive: Bool = false) -> TimingSample {
    m.sample(parentTime: tp, duration: m.duration, endInclusive: endInclusive)
}

@Suite struct MediaTimingTests {
    // MARK: defaults and the two stages

    @Test func mediaTimingDefaults() {
        let m = MediaTiming()
        #expect(m.beginTime == 0 && m.duration == 0 && m.speed == 1 && m.timeOffset == 0)
        #expect(m.repeatCount == 0 && m.repeatDuration == 0 && !m.autoreverses && m.fillMode == .removed)
        #expect(MediaTiming.defaultDuration == 0.25)
        // duration 0 and repeatCount 0 mean one iteration of the default length (book l.1402).
        #expect(m.activeDuration(iteration: MediaTiming.defaultDuration) == 0.25)
    }

    @Test func activeLocalTimeIsApplesFormula() {
        // t = (tp − begin) × speed + offset (CAMediaTiming.h), and its inverse.
        let m = timing(begin: 1, speed: 2, offset: 3)
        #expect(m.localTime(fromParent: 5) == 11)
        #expect(m.parentTime(fromLocal: 11) == 5)
        for tp in [-3.0, 0, 0.25, 1, 7.5] {
            #expect(near(m.parentTime(fromLocal: m.localTime(fromParent: tp)), tp))
        }
        // Speed 0: every parent time maps to the offset; the inverse is beginTime.
        let paused = timing(begin: 4, speed: 0, offset: 0.5)
        #expect(paused.localTime(fromParent: 100) == 0.5)
        #expect(paused.parentTime(fromLocal: 0.5) == 4)
        // Negative speed runs backwards.
        let back = timing(begin: 0, speed: -1, offset: 10)
        #expect(back.localTime(fromParent: 3) == 7)
    }

    @Test func checkRefusesBadTimingValues() {
        for (key, v) in [("duration", -1.0), ("duration", .nan), ("duration", .infinity), ("repeatCount", -0.5),
                         ("repeatDuration", .nan), ("speed", .nan), ("speed", .infinity), ("beginTime", -.infinity),
                         ("timeOffset", .nan)] {
            #expect(errorCode { try MediaTiming.check(key, v) } == .invalidArgument, "\(key) = \(v)")
        }
        for (key, v) in [("duration", 0.0), ("repeatCount", .infinity), ("repeatDuration", .infinity),
                         ("speed", -2), ("speed", 0), ("beginTime", -1), ("timeOffset", 1e6)] {
            #expect(errorCode { try MediaTiming.check(key, v) } == nil, "\(key) = \(v)")
        }
    }

    // MARK: fill modes (spec §1.15 fill table, D8)

    @Test func fillModesBeforeDuringAndAfter() {
        // beginTime 1, duration 1: before at 0.5, active at 1.5, after at 2.5.
        let cases: [(MediaTiming.FillMode, Bool, Bool)] = [
            (.removed, false, false), (.backwards, true, false), (.forwards, false, true), (.both, true, true),
        ]
        for (fill, fillsBefore, fillsAfter) in cases {
            let m = timing(begin: 1, fill: fill)
            let before = at(m, 0.5), during = at(m, 1.5), after = at(m, 2.5)
            #expect(before.phase == .before && during.phase == .active && after.phase == .after, "\(fill)")
            #expect(before.contributes == fillsBefore, "\(fill) before")
            #expect(during.contributes, "\(fill) active")
            #expect(after.contributes == fillsAfter, "\(fill) after")
            #expect(near(during.iterationTime, 0.5), "\(fill)")
            if fillsBefore { #expect(before.iterationTime == 0, "\(fill): first frame") }
            if fillsAfter { #expect(after.iterationTime == 1, "\(fill): last frame") }
        }
    }

    @Test func startIsActiveAndEndIsAfter() {
        let m = timing(begin: 1)
        #expect(at(m, 1).phase == .active && at(m, 1).iterationTime == 0)
        #expect(at(m, 0.999_999).phase == .before)
        #expect(at(m, 1.999_999).phase == .active)
        #expect(at(m, 2).phase == .after, "the end instant belongs to the after phase")
        #expect(!at(m, 2).contributes)
    }

    @Test func endInclusiveHoldsTheLastFrameAtTheEnd() {
        // Groups sample children with endInclusive while the group fills forwards.
        let m = timing(duration: 2)
        let s = at(m, 2, endInclusive: true)
        #expect(s.phase == .active && s.contributes)
        #expect(s.iterationTime == 2, "the last frame, not the next iteration's first")
        #expect(s.iteration == 0)
        #expect(at(m, 2.5, endInclusive: true).phase == .after)
        #expect(!at(m, 2.5, endInclusive: true).contributes, "past the end it still does not fill")
        // The same instant without endInclusive is after (and removed-fill shows nothing).
        #expect(at(m, 2).phase == .after && !at(m, 2).contributes)
        // With repeats and autoreverse the end frame is still the end of the last cycle.
        let r = timing(duration: 1, repeatCount: 2, autoreverses: true)
        let e = at(r, 4, endInclusive: true)
        #expect(e.phase == .active && e.iterationTime == 0 && e.iteration == 1)
    }

    // MARK: repeats

    @Test func fractionalRepeatCount() {
        // Book l.1396–1398: duration 2 × repeatCount 3.5 = 7 s.
        let m = timing(duration: 2, repeatCount: 3.5, fill: .forwards)
        #expect(m.activeDuration(iteration: 2) == 7)
        #expect(at(m, 6.999).phase == .active)
        #expect(at(m, 7).phase == .after)
        #expect(near(at(m, 5).iterationTime, 1) && at(m, 5).iteration == 2, "t=5: half of the third iteration")
        #expect(near(at(m, 6.5).iterationTime, 0.5) && at(m, 6.5).iteration == 3)
        // Filled end: the value at the fraction (half of an iteration).
        #expect(at(m, 7).iterationTime == 1 && at(m, 7).iteration == 3)
        #expect(at(m, 100).iterationTime == 1)
        // repeatCount 2.5 with duration 1 (D13): ends at 2.5 half way.
        let d13 = timing(repeatCount: 2.5, fill: .forwards)
        #expect(d13.activeDuration(iteration: 1) == 2.5)
        #expect(at(d13, 3).iterationTime == 0.5)
    }

    @Test func wholeRepeatCountEndsOnTheLastFrame() {
        let m = timing(duration: 1, repeatCount: 3, fill: .forwards)
        #expect(m.activeDuration(iteration: 1) == 3)
        #expect(at(m, 1).iterationTime == 0 && at(m, 1).iteration == 1, "an iteration boundary inside the animation starts the next one")
        #expect(at(m, 2.25).iterationTime == 0.25 && at(m, 2.25).iteration == 2)
        let end = at(m, 3)
        #expect(end.phase == .after && end.iterationTime == 1 && end.iteration == 2, "the end shows iteration 3's last frame")
    }

    @Test func infiniteRepeats() {
        let m = timing(duration: 2, repeatCount: .infinity)
        #expect(m.activeDuration(iteration: 2) == .infinity)
        #expect(at(m, 1_000_001).phase == .active)
        #expect(near(at(m, 1_000_001).iterationTime, 1))
        let d = timing(duration: 2, repeatDuration: .infinity, autoreverses: true)
        #expect(at(d, 1001).phase == .active)
        #expect(near(at(d, 1001).iterationTime, 1), "1001 mod 4 = 1 (forward half)")
        #expect(near(at(d, 1003).iterationTime, 1), "1003 mod 4 = 3 → mirrored to 1")
    }

    // MARK: autoreverse

    @Test func autoreverseDoublesTheCycle() {
        let once = timing(duration: 1, autoreverses: true, fill: .forwards)
        #expect(once.activeDuration(iteration: 1) == 2)
        #expect(near(at(once, 0.25).iterationTime, 0.25))
        #expect(at(once, 1).iterationTime == 1, "the turning point")
        #expect(near(at(once, 1.25).iterationTime, 0.75), "backward half mirrors the forward half")
        #expect(near(at(once, 1.5).iterationTime, 0.5))
        #expect(at(once, 2).phase == .after)
        #expect(at(once, 2).iterationTime == 0, "the last frame of an autoreversing animation is its start value (D13)")
        let twice = timing(duration: 1, repeatCount: 2, autoreverses: true, fill: .forwards)
        #expect(twice.activeDuration(iteration: 1) == 4, "repeatCount 2 with autoreverse = 4 × duration")
        #expect(near(at(twice, 2.5).iterationTime, 0.5) && at(twice, 2.5).iteration == 1)
        #expect(near(at(twice, 3.5).iterationTime, 0.5))
        #expect(at(twice, 4).iterationTime == 0)
        // repeatCount 1.5 with autoreverse (D13): ends at 3 on the forward half's end value.
        let d13 = timing(duration: 1, repeatCount: 1.5, autoreverses: true, fill: .forwards)
        #expect(d13.activeDuration(iteration: 1) == 3)
        #expect(at(d13, 3).phase == .after && at(d13, 3).iterationTime == 1)
    }

    // MARK: repeatDuration

    @Test func repeatDurationStopsMidCycle() {
        // D14: duration 1, repeatDuration 2.5 → ends at 2.5 half way through a cycle.
        let m = timing(duration: 1, repeatDuration: 2.5, fill: .forwards)
        #expect(m.activeDuration(iteration: 1) == 2.5)
        #expect(at(m, 2.499).phase == .active)
        #expect(at(m, 2.5).phase == .after && at(m, 2.5).iterationTime == 0.5)
        // With autoreverse: 1.5 is falling (0.5), the end 2.5 is rising again (0.5).
        let r = timing(duration: 1, repeatDuration: 2.5, autoreverses: true, fill: .forwards)
        #expect(near(at(r, 1.5).iterationTime, 0.5))
        #expect(near(at(r, 1.75).iterationTime, 0.25), "falling")
        #expect(near(at(r, 2.25).iterationTime, 0.25), "rising in the second cycle")
        #expect(at(r, 2.5).iterationTime == 0.5)
        // Both set: repeatDuration wins (spec §5-15).
        let both = timing(duration: 1, repeatCount: 10, repeatDuration: 2.5)
        #expect(both.activeDuration(iteration: 1) == 2.5)
    }

    // MARK: speed and timeOffset

    @Test func animationSpeedScalesTheActiveDuration() {
        // Book l.1520–1523: speed 2 → a 1 s animation finishes after 0.5 s of parent time.
        let m = timing(duration: 1, speed: 2)
        #expect(near(at(m, 0.25).iterationTime, 0.5))
        #expect(at(m, 0.499).phase == .active)
        #expect(at(m, 0.5).phase == .after)
        // The begin time is in parent time (not scaled by speed).
        let late = timing(duration: 1, begin: 1, speed: 2)
        #expect(at(late, 0.99).phase == .before)
        #expect(near(at(late, 1.25).iterationTime, 0.5))
        #expect(at(late, 1.5).phase == .after)
    }

    @Test func timeOffsetStartsPartWayAndWraps() {
        // Book l.1528–1545: offset 0.5 of a 1 s animation starts in the middle,
        // reaches the end after 0.5 s, wraps and plays on until 1 s.
        let m = timing(duration: 1, offset: 0.5)
        #expect(at(m, 0).iterationTime == 0.5)
        #expect(near(at(m, 0.25).iterationTime, 0.75))
        #expect(at(m, 0.5).iterationTime == 0 && at(m, 0.5).phase == .active, "wrapped to the start")
        #expect(near(at(m, 0.75).iterationTime, 0.25))
        #expect(at(m, 0.999).phase == .active)
        #expect(at(m, 1).phase == .after && !at(m, 1).contributes)
        // Filled, the last frame is where the wrapped timeline stopped (the middle).
        let f = timing(duration: 1, offset: 0.5, fill: .forwards)
        #expect(at(f, 1).iterationTime == 0.5)
        // Filled backwards, the first frame is the offset point.
        let b = timing(duration: 1, begin: 2, offset: 0.25, fill: .backwards)
        #expect(at(b, 0).iterationTime == 0.25)
    }

    @Test func speedTwoWithOffsetHalfStartsAtTheMiddle() {
        // Apple's formula (not the book's "starts at the end", spec §5-1): the
        // offset is not scaled by speed, so the animation starts at the midpoint,
        // wraps at 0.25 s and ends at 0.5 s.
        let m = timing(duration: 1, speed: 2, offset: 0.5)
        #expect(at(m, 0).iterationTime == 0.5, "midpoint, not the end")
        #expect(at(m, 0).phase == .active)
        #expect(near(at(m, 0.125).iterationTime, 0.75))
        #expect(at(m, 0.25).iterationTime == 0 && at(m, 0.25).iteration == 1, "wraps at 0.25 s")
        #expect(near(at(m, 0.375).iterationTime, 0.25))
        #expect(at(m, 0.499).phase == .active)
        #expect(at(m, 0.5).phase == .after)
    }

    @Test func zeroDurationSampleIsTheEnd() {
        // A zero-length cycle (resolved duration 0) shows its end value while it contributes.
        var m = timing(duration: 0, fill: .both)
        let s = m.sample(parentTime: 0, duration: 0)
        #expect(s.contributes && s.iterationTime == 0)
        m.beginTime = 1
        #expect(m.sample(parentTime: 0, duration: 0).phase == .before)
    }
}
