// Module ConformanceReports.
