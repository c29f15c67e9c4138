(ns bellrope.holds.expiry
  (:require [next.jdbc :as jdbc]))

(defn sweep! [ds today]
  (jdbc/execute! ds ["update holds set expired = true where pickup_by < ?" today]))
