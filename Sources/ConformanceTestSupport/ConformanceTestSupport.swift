// Module ConformanceTestSupport.
