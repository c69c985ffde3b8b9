import Testing
@testable import StrataCore

@Suite struct FileNameOrderTests {
    @Test func digitRunsCompareAsNumbers() {
        let names = ["10.yaml", "2.yaml", "1.yaml", "02.yaml", "a10-x.yaml", "a9-x.yaml", "B.yaml", "a.yaml", "1.yml", "100.yaml"]
        #expect(names.sorted(by: FileNameOrder.areInIncreasingOrder)
                == ["1.yaml", "1.yml", "2.yaml", "02.yaml", "10.yaml", "100.yaml", "B.yaml", "a.yaml", "a9-x.yaml", "a10-x.yaml"])
    }

    @Test func aPrefixComesFirstAndEqualNamesAreNotOrdered() {
        #expect(FileNameOrder.areInIncreasingOrder("hook", "hook2"))
        #expect(!FileNameOrder.areInIncreasingOrder("hook2", "hook"))
        #expect(!FileNameOrder.areInIncreasingOrder("5.yaml", "5.yaml"))
    }
}
