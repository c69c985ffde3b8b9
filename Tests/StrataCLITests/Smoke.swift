import Testing
@Test func smoke2() { #expect(1 == 1) }
