(ns bellrope.catalogue.koha-client)

(defn biblios [client opts]
  ((:fetch client) "/api/v1/biblios" opts))
