// strata-bench-objects: the object-by-object anchor of Benchmarks/bench.py.
//
// The way an app without batch requests marks recent recipes as favorites: fetch the matching
// rows into Swift values, change each, save each (one UPDATE per object), in one transaction.
// It exists only to be timed beside `strata batch update` and the same UPDATE in the sqlite3 shell.
//
//     strata-bench-objects STORE THRESHOLD      # THRESHOLD: seconds since 1970 (lastUsed >= THRESHOLD)
//
// Prints the number of objects saved.
import Foundation
import GRDB

struct Recipe: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "Recipe"
    var _pk: Int64
    var name: String?
    var lastUsed: Double?
    var portions: Int?
    var rating: Int?
    var notes: String?
    var favorite: Bool
    var author: Int64?
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let threshold = Double(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: strata-bench-objects STORE THRESHOLD\n".utf8))
    exit(2)
}
do {
    var configuration = Configuration()
    configuration.foreignKeysEnabled = true
    let queue = try DatabaseQueue(path: arguments[1], configuration: configuration)
    let saved = try queue.write { db -> Int in
        var recipes = try Recipe.filter(Column("lastUsed") >= threshold).fetchAll(db)
        for index in recipes.indices {
            recipes[index].favorite = true
            try recipes[index].update(db)
        }
        return recipes.count
    }
    print(saved)
} catch {
    FileHandle.standardError.write(Data("strata-bench-objects: \(error)\n".utf8))
    exit(1)
}
