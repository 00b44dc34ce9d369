//! Reading a model's `model.safetensors` into plain `f32` vectors.
//!
//! The `safetensors` crate parses the file's header and hands out byte
//! slices; this module checks each tensor's size and widens half-precision
//! weights (f16, bf16) to `f32`, the one type the encoder computes in. It
//! knows nothing of BERT: the names it is asked for come from
//! [`crate::cpu_bert`].

use crate::EmbedError;
use safetensors::tensor::{Metadata, TensorInfo};
use safetensors::{Dtype, SafeTensors};
use std::path::Path;

/// A safetensors file held in memory with its parsed header, read one
/// tensor at a time.
pub struct Weights {
    bytes: Vec<u8>,
    /// where the tensors' data starts in `bytes` (after the header)
    data_start: usize,
    header: Metadata,
    label: String,
}

impl Weights {
    /// Read the whole file (tens of MB for the small encoders) into memory
    /// and parse its header, which also checks every tensor's extent.
    pub fn read(path: &Path) -> Result<Self, EmbedError> {
        let label = path.display().to_string();
        let bad = |e: &dyn std::fmt::Display| EmbedError::ModelUnavailable(format!("{label}: {e}"));
        let bytes = std::fs::read(path).map_err(|e| bad(&e))?;
        let (header_len, header) = SafeTensors::read_metadata(&bytes).map_err(|e| bad(&e))?;
        Ok(Self {
            data_start: 8 + header_len,
            bytes,
            header,
            label,
        })
    }

    fn bad(&self, e: impl std::fmt::Display) -> EmbedError {
        EmbedError::ModelUnavailable(format!("{}: {e}", self.label))
    }

    fn info(&self, name: &str) -> Option<&TensorInfo> {
        self.header.info(name)
    }

    /// The number of values the tensor `name` holds, if it is there.
    pub fn len_of(&self, name: &str) -> Option<usize> {
        self.info(name).map(|i| i.shape.iter().product())
    }

    /// The tensor `name` as `f32`, flattened in row-major order; an error
    /// when it is missing, of another size than `len`, or of a type other
    /// than f32, f16 or bf16.
    pub fn f32s(&self, name: &str, len: usize) -> Result<Vec<f32>, EmbedError> {
        let info = self
            .info(name)
            .ok_or_else(|| self.bad(format!("missing tensor {name}")))?;
        let n: usize = info.shape.iter().product();
        if n != len {
            return Err(self.bad(format!("tensor {name} has {n} values, want {len}")));
        }
        // read_metadata checked that every tensor's offsets lie in the file
        let (from, to) = info.data_offsets;
        let data = &self.bytes[self.data_start + from..self.data_start + to];
        let values = match info.dtype {
            Dtype::F32 => data
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect(),
            Dtype::F16 => data
                .chunks_exact(2)
                .map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect(),
            Dtype::BF16 => data
                .chunks_exact(2)
                .map(|b| half::bf16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect(),
            other => return Err(self.bad(format!("tensor {name} is {other:?}, not a float type"))),
        };
        Ok(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use safetensors::tensor::TensorView;

    fn write(dir: &Path, tensors: &[(&str, Dtype, Vec<usize>, Vec<u8>)]) -> std::path::PathBuf {
        let views: Vec<(String, TensorView<'_>)> = tensors
            .iter()
            .map(|(name, dtype, shape, bytes)| {
                let view = TensorView::new(*dtype, shape.clone(), bytes).unwrap();
                (name.to_string(), view)
            })
            .collect();
        let path = dir.join("model.safetensors");
        safetensors::serialize_to_file(views, None, &path).unwrap();
        path
    }

    #[test]
    fn reads_every_float_width_as_f32() {
        let dir = tempfile::tempdir().unwrap();
        let values = [1.5f32, -2.25, 0.0, 1024.0];
        let f32s: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let f16s: Vec<u8> = values
            .iter()
            .flat_map(|v| half::f16::from_f32(*v).to_le_bytes())
            .collect();
        let bf16s: Vec<u8> = values
            .iter()
            .flat_map(|v| half::bf16::from_f32(*v).to_le_bytes())
            .collect();
        let path = write(
            dir.path(),
            &[
                ("a", Dtype::F32, vec![2, 2], f32s),
                ("b", Dtype::F16, vec![4], f16s),
                ("c", Dtype::BF16, vec![1, 4], bf16s),
                ("d", Dtype::I64, vec![1], 7i64.to_le_bytes().to_vec()),
            ],
        );
        let w = Weights::read(&path).unwrap();
        for name in ["a", "b", "c"] {
            assert_eq!(w.f32s(name, 4).unwrap(), values, "{name}");
        }
        assert_eq!(w.len_of("a"), Some(4));
        assert_eq!(w.len_of("nope"), None);
        let err = |name: &str, len| w.f32s(name, len).unwrap_err().to_string();
        assert!(
            err("a", 3).contains("has 4 values, want 3"),
            "{}",
            err("a", 3)
        );
        assert!(err("nope", 1).contains("missing tensor nope"));
        assert!(err("d", 1).contains("not a float type"));
    }

    #[test]
    fn a_file_that_is_not_safetensors_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.safetensors");
        std::fs::write(&path, b"not a model").unwrap();
        let err = Weights::read(&path).err().unwrap().to_string();
        assert!(err.contains("model.safetensors"), "{err}");
    }
}
