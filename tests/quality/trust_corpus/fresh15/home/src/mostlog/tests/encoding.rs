//! Host tests of the payload packer.
