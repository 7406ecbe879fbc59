# Broken on purpose: a file with comments only and no Feature.
