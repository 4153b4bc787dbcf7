//! The bundled example suite (filled in once casts/ exists).
