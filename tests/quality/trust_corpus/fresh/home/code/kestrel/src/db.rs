//! kestrel's db.
