import Foundation
import StrataCore

/// The store layouts `StoreMetadata` has decoded, by their JSON text, so that reading the same layout again
/// costs a dictionary lookup instead of a `JSONDecoder` pass.
///
/// A run reads a store's metadata several times (opening it, planning, re-reading it inside each version step's
/// transaction), and the stores of a fleet hold one layout per model version. Measured with callgrind on a fleet
/// of 20 stores of the example migrated v1 → v4 (`--jobs 1`): the 120 metadata reads spent 107.6 M of the run's
/// 1,524 M instructions decoding layouts (7%). At most ``capacity`` layouts are kept; the cache starts over when
/// it is full.
final class DecodedLayouts: @unchecked Sendable {   // `layouts` is only touched under `lock`
    static let shared = DecodedLayouts()
    static let capacity = 64

    private let lock = NSLock()
    private var layouts: [String: StoreLayout] = [:]

    /// The layout `text` encodes.
    /// - Throws: `DecodingError` when `text` is not a layout's JSON.
    func layout(_ text: String) throws -> StoreLayout {
        if let known = lock.withLock({ layouts[text] }) { return known }
        let layout = try JSONDecoder().decode(StoreLayout.self, from: Data(text.utf8))
        lock.withLock {
            if layouts.count >= Self.capacity { layouts.removeAll() }
            layouts[text] = layout
        }
        return layout
    }

    /// How many layouts are kept (for tests).
    var count: Int { lock.withLock { layouts.count } }
}
