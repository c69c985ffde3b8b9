#if canImport(CryptoKit)
import CryptoKit
#endif
import Foundation
import GRDB
import Strata
import StrataPostgres
import Testing

/// Every public top-level type of Strata (StrataCore, Strata and StrataPostgres), named unqualified next to `import Foundation`, `import GRDB` and (on
/// Apple platforms) `import CryptoKit`: this file stops compiling when Strata takes a name one of them exports
/// (`'SQL' is ambiguous for type lookup`). `StrataTests.PublicNamesTests` checks that the list is complete.
/// Two names are shared with Swift Testing (imported here, not by apps): `ExitStatus` and `SourceLocation`,
/// written qualified.
@Suite struct NameClashTests {
    static let strataTypes: [Any.Type] = [
        AttributeMapping.self, DroppedLinkProbe.self, EntityMapping.self, LocatedText.self, MappedEntity.self,
        MappingEntityReport.self, MappingFile.self, MappingFileLoader.self, MappingFileSet.self, MappingSkeleton.self,
        MappingState.self, MappingViolationError.self, RelationshipMapping.self,
        BatchInsertConflictPolicy.self, BatchInsertPlan.self, BatchInsertPlanner.self, BatchInsertRequest.self,
        BatchInsertResultType.self, BatchInsertSource.self, HookTiming.self, RelationshipAmbiguityError.self,
        RelationshipLinkPlan.self, RelationshipLinkPlanner.self, SQLStep.self, SQLStepError.self, SetRelationshipRequest.self,
        StageContext.self, StageError.self, Stages.self, SwiftStageDeclaration.self,
        Attribute.self, AttributeRules.self, AttributeType.self, AuditCode.self, AuditPlanner.self, AuditError.self,
        AuditMode.self, AuditResult.self, AuditRule.self, AuditRuleResult.self, AuditRunMode.self, AuditSchedule.self, AuditSQL.self,
        AuditSample.self, AuditScope.self, Auditor.self, Backup.self, BatchDeletePlan.self, BatchDeleteRequest.self,
        BatchDeleteResultType.self, BatchError.self, BatchPlanner.self, BatchResult.self, BatchUpdatePlan.self,
        BatchUpdateRequest.self, BatchUpdateResultType.self, BatchViolationError.self, ChangeObservers.self,
        ChangeSet.self, CoercionError.self, ColumnName.self, ColumnSpec.self, CoreDataImport.self, DateText.self,
        DecimalText.self, DeleteBlocker.self, DeleteRule.self, Diagnostic.self, DiagnosticList.self, DriftReport.self,
        EarlierNames.self, Entity.self, EntityStorage.self, StrataCore.ExitStatus.self, FetchError.self, FetchedObject.self,
        HTMLReport.self, History.self, HistoryEntry.self, Hook.self, HookChecker.self, HookLoader.self,
        HookOutcome.self, HookRecord.self, HookRunResult.self, HookSet.self, HookState.self, HookStep.self,
        HookStepResult.self, HookViolationError.self, HotJournal.self, IndexName.self, IndexSpec.self, JSONReport.self,
        JUnitReport.self, LateHooksError.self, LayoutBuilder.self, LockHolder.self, MappingChange.self,
        MappingError.self, MappingInference.self, MappingRefusal.self, MarkdownReport.self, MatchesRegex.self,
        MigrationCheck.self, MigrationError.self, MigrationOperation.self, MigrationOptions.self, MigrationResult.self,
        MigrationRun.self, MigrationRunError.self, MigrationRunReport.self, MigrationViolation.self, Migrator.self,
        Model.self, ModelHistory.self, ModelLoader.self, NameSuggestion.self, NotCarried.self, NumberText.self,
        ObjectCursor.self, ObjectID.self, OutputFile.self, OutputFileError.self, PathText.self, PipelineError.self, PredicateArgument.self, PredicateCompileError.self,
        PredicateCompiler.self, PredicateContext.self, Preflight.self, ProgressCounter.self, (any ProgressSink).self,
        ProgressState.self, ProjectSource.self, PropertySort.self, Relationship.self, RelationshipStorage.self,
        Report.self, ReportFormat.self, (any ReportRenderer).self, SQLDialect.self, SQLText.self,
        SQLFunction.self, SQLKeyword.self, StrataFunction.self, PostgresRenderer.self, PostgresRenderError.self,
        PostgresStatementSplitter.self, PostgresLexer.self, PostgresBatch.self, PostgresLint.self,
        ScalarLayout.self, SchemaSQL.self, SignalCleanup.self, Snapshot.self, StrataCore.SourceLocation.self, StepReport.self, Store.self,
        StoreAdoption.self, StoreChanges.self, StoreCreator.self, StoreError.self, StoreLayout.self, StoreLock.self,
        StoreMetadata.self, StorePath.self, StorePathError.self, StoreSetupError.self, StoreStatus.self,
        (any StrataError).self, StrataVersion.self, TableAction.self, TableName.self, TableSpec.self, TextFolding.self,
        TextReport.self, UpdateValue.self, ValidationRule.self, Value.self, VersionHash.self, VersionStep.self,
        ViolationPolicy.self, Fleet.self, FleetError.self, FleetReport.self, FleetStoreResult.self, FleetStores.self,
        SQLiteMemoryStatistics.self,
        ColumnSource.self, KindBranch.self, NullDefault.self, TablePlan.self, TablePlans.self,
        // StrataPostgres, the PostgreSQL engine (SPEC §14.2).
        PostgresMigration.self, PostgresNames.self, PostgresStatus.self, PostgresStore.self, PostgresStoreError.self,
        PostgresStoreURL.self, PostgresSchemaGlob.self,
        // Operations on PostgreSQL (issue 18): privileges, lock waits, TLS.
        PostgresLockWaitError.self, PostgresPrivilegeError.self, PostgresSSLMode.self,
        // libpq's connection options (several hosts, target_session_attrs, TLS versions).
        PostgresTargetSessionAttrs.self, PostgresTLSVersion.self,
    ]

    @Test func everyPublicTypeIsNamedUnambiguously() {
        // Each unqualified name is Strata's own type…
        #expect(Self.strataTypes.map { String(reflecting: $0) }.filter { !$0.hasPrefix("Strata.") && !$0.hasPrefix("StrataCore.") && !$0.hasPrefix("StrataPostgres.") } == [])
        // … and GRDB's and Foundation's names stay theirs.
        let theirs: [Any.Type] = [SQL.self, Row.self, Column.self, Configuration.self]
        #expect(theirs.map { String(reflecting: $0) } == ["GRDB.SQL", "GRDB.Row", "GRDB.Column", "GRDB.Configuration"])
        #expect(!String(reflecting: Bundle.self).hasPrefix("Strata"))
    }
}
