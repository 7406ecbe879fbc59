// The model is part of ConformanceKit's interface: a client importing ConformanceKit sees it too.
@_exported import ConformanceModel
@_exported import ConformanceSimulation
@_exported import ConformanceCriteria
