module Glossa.FuzzySpec (spec) where
