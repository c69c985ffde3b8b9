import Strata
import StrataCLI

// The stock `strata`: no Swift stages registered. An application's own `strata` registers its stages
// and passes them here instead (Docs/stages.md).
await StrataCommand.main(stages: Stages())
