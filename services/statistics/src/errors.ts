import { createError } from '@switchboard/platform'

/**
 * statistics' error catalog; codes are stable. Query problems the schema cannot judge alone (a date that does not
 * exist, a range the wrong way round or too long) name the parameter like a validation failure does.
 */
export const StatisticsErrors = {
  /** a date parameter that is missing, malformed or not a calendar day */
  BadDate: createError('VALIDATION_FAILED', 'querystring.%s: %s', 400),
  /** a tz= the runtime's time zone database does not know */
  BadZone: createError('VALIDATION_FAILED', 'querystring.tz: %s is not a known IANA time zone', 400),
  /** end_date before start_date, or more days than a report covers */
  BadRange: createError('STATISTICS_INVALID_RANGE', 'querystring.%s: %s', 400),
  /** a tz= other than UTC on a report of DailyStats, whose rows are UTC days */
  UtcOnly: createError('VALIDATION_FAILED', 'querystring.tz: %s: DailyStats counts UTC days; give UTC or no tz', 400),
}
