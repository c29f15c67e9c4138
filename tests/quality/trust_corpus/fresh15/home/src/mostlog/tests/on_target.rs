//! On-target driver tests (need the DK).
