import Foundation
import Testing
@testable import Strata
@testable import StrataCore

/// The planner's shortcut must not change a plan: the layout reused when carried columns land on the
/// names a new store would get.
@Suite struct PlanningEquivalenceTests {
    @Test func reusedLayoutsPlanAsComputedOnes() throws {
        let models = HistoryGenerator.history(versions: 30, entities: 120)
        let created = Dictionary(uniqueKeysWithValues: models.map { ($0.version, LayoutBuilder.layout(for: $0)) })
        let reused = try MappingInference.plan(models: models, from: 1, to: 30, createdLayouts: created)
        #expect(reused.count == 29)
        // Planning without any created layout (every destination layout computed in full) gives the same.
        let computed = try MappingInference.plan(models: models, from: 1, to: 30)
        #expect(reused.map(\.destinationLayout) == computed.map(\.destinationLayout))
        #expect(reused.map(\.sqlText) == computed.map(\.sqlText))
    }

    /// The history keeps the layout the checker built for each version: the one a store created there gets.
    @Test func theHistoryKeepsEachVersionsCreatedLayout() throws {
        let history = try ModelHistory.load(yaml: ["1.yaml": Self.yaml.replacingOccurrences(of: "version: 2", with: "version: 1"),
                                                   "2.yaml": Self.yaml])
        #expect(history.createdLayouts.keys.sorted() == [1, 2])
        for model in history.models { #expect(history.createdLayouts[model.version] == LayoutBuilder.layout(for: model)) }
    }

    /// Sibling attributes clash in a hierarchy (members in name order: `Boat.seats`, then `Car.seats` →
    /// `Car_seats`); a kept column can take a name a new store would give another property.
    static let yaml = """
    version: 2
    entities:
      Vehicle:
        attributes:
          name: { type: string }
      Car:
        parent: Vehicle
        attributes:
          seats: { type: int16 }
      Boat:
        parent: Vehicle
        attributes:
          seats: { type: int16 }
          order: { type: int32 }
    """

    @Test func reusedLayoutEqualsTheComputedOne() throws {
        let model = try ModelLoader.load(yaml: Self.yaml, file: "models/2.yaml")
        let created = LayoutBuilder.layout(for: model)
        #expect(created.storage(of: "Car")?.attributeColumns["seats"] == "Car_seats")

        // Kept names equal to a new store's: the cached layout comes back, and it is what a full build gives.
        let same = ["Vehicle": ["name": "name"], "Car": ["seats": "Car_seats"], "Boat": ["seats": "seats", "order": "order"]]
        #expect(LayoutBuilder.layout(for: model, keeping: same, created: created) == created)
        #expect(LayoutBuilder.layout(for: model, keeping: same) == created)

        // Car's seats kept the plain name (Car came first in an older store): Boat's moves aside.
        let swapped = ["Car": ["seats": "seats"]]
        let layout = LayoutBuilder.layout(for: model, keeping: swapped, created: created)
        #expect(layout == LayoutBuilder.layout(for: model, keeping: swapped))
        #expect(layout.storage(of: "Car")?.attributeColumns["seats"] == "seats")
        #expect(layout.storage(of: "Boat")?.attributeColumns["seats"] == "Boat_seats")
        #expect(layout != created)

        // A kept column under another name.
        let renamed = ["Boat": ["order": "sortOrder"]]
        let other = LayoutBuilder.layout(for: model, keeping: renamed, created: created)
        #expect(other == LayoutBuilder.layout(for: model, keeping: renamed))
        #expect(other.table("Vehicle")?.columns.map(\.name) == ["_pk", "_entity", "name", "seats", "sortOrder", "Car_seats"])
    }
}
