import Foundation

/// The Swift stages an application registers (SPEC §11.2), each also declared by a file in `migrations/`
/// (`swift: true`, `revision:`) so that every binary knows it exists.
///
/// ```swift
/// var stages = Stages()
/// stages.register("split-full-names", revision: "1") { ctx in
///     try ctx.execute(sql: "UPDATE …", arguments: [ctx.now])
/// }
/// ```
public struct Stages: Sendable {
    /// What a stage does, inside the transaction of its step.
    public typealias Body = @Sendable (StageContext) throws -> Void

    /// One registration.
    public struct Registration: Sendable {
        public let id: String
        public let revision: String
        package let body: Body
    }

    /// Registrations in the order they were made; a second registration of one id is kept so that
    /// `lint` and `migrate` can refuse it (exit 2) instead of one silently replacing the other.
    public private(set) var registrations: [Registration] = []

    public init() {}

    /// Registers the stage `id` at `revision`; its declaration in `migrations/` must carry the same revision.
    public mutating func register(_ id: String, revision: String, _ body: @escaping Body) {
        registrations.append(Registration(id: id, revision: revision, body: body))
    }

    /// The registration of `id` (the first, when there are several).
    public func registration(_ id: String) -> Registration? { registrations.first { $0.id == id } }

    public var isEmpty: Bool { registrations.isEmpty }
}
