<?php
/**
 * Plugin Name: leaseq cron test recorder
 * Description: Must-use plugin of tests/wordpress/run: records every run of
 * the test events (one row per run, nothing unique) so the test can count
 * runs per occurrence, and adds the short test schedule.
 */

defined( 'ABSPATH' ) || exit;

add_filter(
	'cron_schedules',
	static function ( $schedules ) {
		$schedules['lq_test_3s'] = array(
			'interval' => 3,
			'display'  => 'Every 3 seconds (leaseq cron test)',
		);
		return $schedules;
	}
);

/**
 * The occurrence that runs now: leaseq cron says it; stock wp-cron.php
 * runs its loop at file scope, so its $timestamp is a global.
 */
function lq_test_occurrence() {
	if ( function_exists( 'leaseq_cron_current_event' ) && leaseq_cron_current_event() ) {
		return array( (int) leaseq_cron_current_event()->timestamp, 'leaseq' );
	}
	if ( defined( 'DOING_CRON' ) && isset( $GLOBALS['timestamp'] ) ) {
		return array( (int) $GLOBALS['timestamp'], 'wp-cron' );
	}
	return array( -1, 'unknown' );
}

function lq_test_record( $hook, $phase, $item ) {
	global $wpdb;
	list( $occurrence, $via ) = lq_test_occurrence();
	$wpdb->insert(
		$wpdb->prefix . 'lq_test_runs',
		array(
			'phase'      => (string) $phase,
			'hook'       => $hook,
			'item'       => (string) $item,
			'occurrence' => $occurrence,
			'ran_at'     => sprintf( '%.6F', microtime( true ) ),
			'via'        => $via,
			'pid'        => getmypid(),
		)
	);
	// Some work, as a real callback does: overlapping runners get a window.
	usleep( 200000 );
}

foreach ( array( 'lq_test_single', 'lq_test_recurring', 'lq_test_pattern' ) as $lq_test_hook ) {
	add_action(
		$lq_test_hook,
		static function ( $phase = '', $item = '' ) use ( $lq_test_hook ) {
			lq_test_record( $lq_test_hook, $phase, $item );
		},
		10,
		2
	);
}

// A callback that fails: leaseq cron records the failure (the event is not
// run again) and goes on.
add_action(
	'lq_test_throw',
	static function ( $phase = '', $item = '' ) {
		lq_test_record( 'lq_test_throw', $phase, $item );
		throw new RuntimeException( 'lq_test_throw failed on purpose' );
	},
	10,
	2
);

// The pattern plugins use on every page load; racing requests may both see
// no event and both schedule one.
add_action(
	'init',
	static function () {
		$phase = get_option( 'lq_test_pattern_phase' );
		if ( $phase && ! wp_next_scheduled( 'lq_test_pattern', array( $phase, 'p' ) ) ) {
			wp_schedule_event( time(), 'lq_test_3s', 'lq_test_pattern', array( $phase, 'p' ) );
		}
	}
);
