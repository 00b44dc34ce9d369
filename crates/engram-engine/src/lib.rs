//! engram-engine
