// Module ConformanceJSONRPC.
