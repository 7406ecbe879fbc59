// Module ConformanceKit.
