/// A small deterministic generator (SplitMix64) for seeded tests: the same sequence on every platform,
/// so a fuzz seed replays exactly.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n` (0 when `n` is not positive).
    public mutating func next(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }

    /// One element of a non-empty list.
    public mutating func pick<T>(_ list: [T]) -> T { list[next(list.count)] }
}
