import Foundation
import Testing
@testable import Strata
@testable import StrataCore
@Test func tmpProfile() throws {
    let models = HistoryGenerator.history(versions: 12)
    var t = [Double](repeating: 0, count: 4)
    var layout = LayoutBuilder.layout(for: models[0])
    for (s, d) in zip(models, models.dropFirst()) {
        var c = Date()
        let corr = ModelCorrespondence(source: s, destination: d, earlier: EarlierNames([s]))
        t[0] += Date().timeIntervalSince(c); c = Date()
        let a = ChangeAnalysis(corr, sourceLayout: layout)
        t[1] += Date().timeIntervalSince(c); c = Date()
        let l = LayoutBuilder.layout(for: d, keeping: a.keeping)
        t[2] += Date().timeIntervalSince(c); c = Date()
        _ = TablePlanner(corr, source: layout, destination: l)
        t[3] += Date().timeIntervalSince(c)
        layout = l
    }
    print("PROFILE", t)
}
