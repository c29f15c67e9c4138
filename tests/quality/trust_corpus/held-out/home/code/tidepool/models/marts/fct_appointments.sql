{{ config(materialized='incremental', unique_key='appointment_id', on_schema_change='append_new_columns') }}

SELECT
    a.appointment_id,
    a.clinic_id,
    a.starts_at_utc,
    a.status
FROM {{ ref('stg_clinic_api__appointments') }} AS a
{% if is_incremental() %}
WHERE a.updated_at > (SELECT max(updated_at) - INTERVAL '3 days' FROM {{ this }})
{% endif %}
