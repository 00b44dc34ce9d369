//! engram-extract
