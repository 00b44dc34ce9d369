//! engram-embed
