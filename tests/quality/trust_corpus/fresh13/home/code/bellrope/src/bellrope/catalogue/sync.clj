(ns bellrope.catalogue.sync
  (:require [bellrope.catalogue.koha-client :as koha]))

(defn changed-biblios [client since]
  (koha/biblios client {:modified-since since :per-page 500}))
