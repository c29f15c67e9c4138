SELECT clinic_id, count(*) AS appointments FROM {{ ref('fct_appointments') }} GROUP BY 1
