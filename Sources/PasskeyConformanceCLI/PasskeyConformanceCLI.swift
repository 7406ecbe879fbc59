// Module PasskeyConformanceCLI.
