import StrataCore

/// A shop's models for the in-place PostgreSQL steps: SQL keywords as names (`Order`, `group`, `user`),
/// a hierarchy (`Item` with `Book` and `Gadget`), to-ones without an inverse (`Order.customer`, `Review.item`).
///
/// v1 → v2: `Order` becomes `Purchase` (table, foreign key and index renamed), `total` float → double and
/// `number` int32 → int64 (retyped in place), `note` removed, `Customer.group` renamed to `user`, `score`
/// int16 → int32, `Customer.name` becomes non-optional without a default, `Gadget` removed (its objects
/// deleted, reviews of them unlinked, `watts` dropped), `Item.label` becomes non-optional with a default, `Book.pages` int16 → int32.
enum PostgresShopFixture {
    static let v1 = """
        version: 1
        entities:
          Customer:
            attributes:
              name:  { type: string }
              group: { type: string }
              score: { type: int16 }
          Order:
            attributes:
              number: { type: int32, optional: false, default: 0, indexed: true }
              total:  { type: float }
              note:   { type: string }
            relationships:
              customer: { destination: Customer, deleteRule: nullify }
          Item:
            attributes:
              label: { type: string }
          Book:
            parent: Item
            attributes:
              pages: { type: int16 }
          Gadget:
            parent: Item
            attributes:
              watts: { type: int32 }
          Review:
            attributes:
              stars: { type: int16 }
            relationships:
              item: { destination: Item, deleteRule: nullify }
        """

    static let v2 = """
        version: 2
        entities:
          Customer:
            attributes:
              name: { type: string, optional: false }
              user: { type: string, renamedFrom: group }
              score: { type: int32 }
          Purchase:
            renamedFrom: Order
            attributes:
              number: { type: int64, optional: false, default: 0, indexed: true }
              total:  { type: double }
            relationships:
              customer: { destination: Customer, deleteRule: nullify }
          Item:
            attributes:
              label: { type: string, optional: false, default: unnamed }
          Book:
            parent: Item
            attributes:
              pages: { type: int32 }
          Review:
            attributes:
              stars: { type: int16 }
            relationships:
              item: { destination: Item, deleteRule: nullify }
        """

    static func history() throws -> ModelHistory { try ModelHistory.load(yaml: ["1.yaml": v1, "2.yaml": v2]) }
}
