//! engram-server
