module Glossa.Tm.Fuzzy where
