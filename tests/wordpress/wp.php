<?php
/**
 * tests/wordpress/wp.php COMMAND [ARGS] - the WordPress side of
 * tests/wordpress/run, run with the PHP CLI inside the throwaway site
 * (WP_TEST_ROOT: its docroot; WP_TEST_HOST: host:port of its first server).
 *
 *   createdb DSN NAME    create (or "dropdb": drop) database NAME on the MySQL
 *                        server of DSN (mysql://user:pass@host:port/db)
 *   install              wp_install(), the runs table
 *   mode stock|leaseq    deactivate / activate leaseq cron
 *   schedule PHASE BASE N  the test events of PHASE through the cron API:
 *                        N single events due between BASE+3 and BASE+20,
 *                        two recurring events every 3 s from BASE+2; prints
 *                        "single ITEM TS" and "recurring ITEM TS" lines
 *   unschedule PHASE     remove the recurring test events of PHASE
 *   api                  the cron API on scratch hooks: one "name: value"
 *                        line per answer, timestamps relative to now
 *   pending PHASE FILE   how many single events of FILE (schedule's output)
 *                        have not run yet
 *   report PHASE FILE    the counts of PHASE as JSON
 *   pattern PHASE        how many lq_test_pattern events exist now
 *   next HOOK            wp_next_scheduled(HOOK)
 *   throwing PHASE       schedule lq_test_throw (its callback throws), due now
 *   runs PHASE HOOK      how many runs of HOOK PHASE recorded
 */

if ( PHP_SAPI !== 'cli' ) {
	exit( 1 );
}
$cmd = $argv[1] ?? '';

function db_of_dsn( $dsn ) {
	$u = parse_url( $dsn );
	if ( ! $u || ! isset( $u['host'] ) ) {
		fwrite( STDERR, "wp.php: not a mysql:// DSN\n" );
		exit( 1 );
	}
	return array( $u['host'], (int) ( $u['port'] ?? 3306 ), rawurldecode( $u['user'] ?? '' ), rawurldecode( $u['pass'] ?? '' ) );
}

if ( 'createdb' === $cmd || 'dropdb' === $cmd ) {
	list( $host, $port, $user, $pass ) = db_of_dsn( $argv[2] );
	$name                              = $argv[3];
	if ( ! preg_match( '/^[A-Za-z0-9_]+$/', $name ) ) {
		exit( 64 );
	}
	mysqli_report( MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT );
	$m = new mysqli( $host, $user, $pass, '', $port );
	$m->query( 'createdb' === $cmd ? "CREATE DATABASE `$name` CHARACTER SET utf8mb4" : "DROP DATABASE IF EXISTS `$name`" );
	exit( 0 );
}

// The CLI never triggers a run (stock or leaseq): only the page hits and
// wp-cron.php requests the test makes do, and the API answers are not
// raced by a run the CLI started itself.
define( 'DISABLE_WP_CRON', true );
define( 'LEASEQ_CRON_TRIGGER', 'off' );
$_SERVER['HTTP_HOST']   = getenv( 'WP_TEST_HOST' );
$_SERVER['SERVER_NAME'] = explode( ':', $_SERVER['HTTP_HOST'] )[0];
$_SERVER['REQUEST_URI'] = '/';
if ( 'install' === $cmd ) {
	define( 'WP_INSTALLING', true );
}
require getenv( 'WP_TEST_ROOT' ) . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/plugin.php';

const LQ_PLUGIN = 'leaseq-cron/leaseq-cron.php';

function out( $name, $value ) {
	if ( is_wp_error( $value ) ) {
		$value = 'WP_Error:' . $value->get_error_code();
	} elseif ( is_object( $value ) || is_array( $value ) ) {
		$value = json_encode( $value );
	} else {
		$value = var_export( $value, true );
	}
	echo $name, ': ', $value, "\n";
}

/** The runs of PHASE: list of [hook, item, occurrence, ran_at, via]. */
function runs( $phase ) {
	global $wpdb;
	return $wpdb->get_results(
		$wpdb->prepare( "SELECT hook, item, occurrence, ran_at, via FROM {$wpdb->prefix}lq_test_runs WHERE phase = %s ORDER BY id", $phase ),
		ARRAY_A
	);
}

function scheduled( $file ) {
	$s = array();
	foreach ( file( $file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES ) as $line ) {
		list( $kind, $item, $ts ) = explode( ' ', $line );
		$s[]                      = array( $kind, $item, (int) $ts );
	}
	return $s;
}

switch ( $cmd ) {
	case 'install':
		global $wpdb;
		$r = wp_install( 'leaseq cron test', 'admin', 'admin@example.invalid', false, '', wp_generate_password( 24 ) );
		$wpdb->query(
			"CREATE TABLE {$wpdb->prefix}lq_test_runs (
				id BIGINT AUTO_INCREMENT PRIMARY KEY, phase VARCHAR(16) NOT NULL, hook VARCHAR(64) NOT NULL,
				item VARCHAR(16) NOT NULL, occurrence BIGINT NOT NULL, ran_at DECIMAL(20,6) NOT NULL,
				via VARCHAR(16) NOT NULL, pid INT NOT NULL)"
		);
		// Permalinks off, no comment pings: the front page stays one plain request.
		update_option( 'default_pingback_flag', 0 );
		echo 'installed: ', is_array( $r ) ? 'yes' : 'no', "\n";
		break;

	case 'mode':
		if ( 'leaseq' === $argv[2] ) {
			$r = activate_plugin( LQ_PLUGIN );
			if ( is_wp_error( $r ) ) {
				fwrite( STDERR, 'activate: ' . $r->get_error_message() . "\n" );
				exit( 1 );
			}
		} else {
			deactivate_plugins( LQ_PLUGIN );
		}
		echo 'active: ', is_plugin_active( LQ_PLUGIN ) ? 'yes' : 'no', "\n";
		break;

	case 'schedule':
		$phase = $argv[2];
		$base  = (int) $argv[3];
		$n     = (int) $argv[4];
		update_option( 'lq_test_pattern_phase', $phase );
		for ( $i = 0; $i < $n; $i++ ) {
			$ts = $base + 3 + intdiv( $i * 18, $n );
			if ( true !== wp_schedule_single_event( $ts, 'lq_test_single', array( $phase, (string) $i ) ) ) {
				fwrite( STDERR, "wp_schedule_single_event $i failed\n" );
				exit( 1 );
			}
			echo "single $i $ts\n";
			// Core's rule: the same event again within ten minutes is refused.
			if ( false !== wp_schedule_single_event( $ts + 60, 'lq_test_single', array( $phase, (string) $i ) ) ) {
				fwrite( STDERR, "a duplicate of single event $i was accepted\n" );
				exit( 1 );
			}
		}
		foreach ( array( 'r1', 'r2' ) as $item ) {
			if ( true !== wp_schedule_event( $base + 2, 'lq_test_3s', 'lq_test_recurring', array( $phase, $item ) ) ) {
				fwrite( STDERR, "wp_schedule_event $item failed\n" );
				exit( 1 );
			}
			echo 'recurring ', $item, ' ', $base + 2, "\n";
		}
		break;

	case 'unschedule':
		$phase = $argv[2];
		delete_option( 'lq_test_pattern_phase' );
		foreach ( array( 'r1', 'r2' ) as $item ) {
			wp_clear_scheduled_hook( 'lq_test_recurring', array( $phase, $item ) );
		}
		wp_clear_scheduled_hook( 'lq_test_pattern', array( $phase, 'p' ) );
		wp_unschedule_hook( 'lq_test_single' );
		break;

	case 'throwing':
		echo var_export( wp_schedule_single_event( time(), 'lq_test_throw', array( $argv[2], 't' ) ), true ), "\n";
		break;

	case 'runs':
		$n = 0;
		foreach ( runs( $argv[2] ) as $r ) {
			$n += ( $r['hook'] === $argv[3] ) ? 1 : 0;
		}
		echo $n, "\n";
		break;

	case 'next':
		echo var_export( wp_next_scheduled( $argv[2] ), true ), "\n";
		break;

	case 'pattern':
		$n = 0;
		foreach ( _get_cron_array() as $ts => $hooks ) {
			foreach ( $hooks['lq_test_pattern'] ?? array() as $e ) {
				$n += ( $e['args'] === array( $argv[2], 'p' ) ) ? 1 : 0;
			}
		}
		echo $n, "\n";
		break;

	case 'api':
		$h   = 'lq_api';
		$now = time();
		foreach ( array( $h, $h . '_r', $h . '_p', $h . '_s' ) as $hook ) {
			wp_unschedule_hook( $hook );
		}
		$rel = static function ( $ts ) use ( $now ) {
			return false === $ts ? false : $ts - $now;
		};
		out( 'single', wp_schedule_single_event( $now + 3600, $h, array( 1 ) ) );
		out( 'single again', wp_schedule_single_event( $now + 3600, $h, array( 1 ) ) );
		out( 'single 5 min later', wp_schedule_single_event( $now + 3900, $h, array( 1 ), true ) );
		out( 'single other args', wp_schedule_single_event( $now + 3900, $h, array( 2 ) ) );
		out( 'single 20 min later', wp_schedule_single_event( $now + 4800, $h, array( 1 ) ) );
		out( 'single bad timestamp', wp_schedule_single_event( 0, $h, array( 1 ), true ) );
		out( 'next', $rel( wp_next_scheduled( $h, array( 1 ) ) ) );
		out( 'next other args', $rel( wp_next_scheduled( $h, array( 2 ) ) ) );
		out( 'next none', wp_next_scheduled( $h, array( 3 ) ) );
		$e = wp_get_scheduled_event( $h, array( 1 ), $now + 4800 );
		out( 'event at', $e ? array( $e->hook, $rel( $e->timestamp ), $e->schedule, $e->args, isset( $e->interval ) ) : $e );
		out( 'event at no such time', wp_get_scheduled_event( $h, array( 1 ), $now + 1 ) );
		out( 'event bad time', wp_get_scheduled_event( $h, array( 1 ), 'x' ) );
		out( 'recurring', wp_schedule_event( $now + 60, 'hourly', $h . '_r', array( 'x' ) ) );
		out( 'recurring bad schedule', wp_schedule_event( $now + 60, 'no-such', $h . '_r', array( 'y' ), true ) );
		$e = wp_get_scheduled_event( $h . '_r', array( 'x' ) );
		out( 'recurring event', $e ? array( $e->hook, $rel( $e->timestamp ), $e->schedule, $e->args, $e->interval ?? null ) : $e );
		out( 'schedule', wp_get_schedule( $h . '_r', array( 'x' ) ) );
		out( 'past', wp_schedule_single_event( $now - 100, $h . '_p' ) );
		out( 'past again', wp_schedule_single_event( $now - 50, $h . '_p', array(), true ) );
		out( 'due soon after past', wp_schedule_single_event( $now + 300, $h . '_p', array(), true ) );
		$mine = array();
		foreach ( _get_cron_array() as $ts => $hooks ) {
			foreach ( $hooks as $hook => $events ) {
				if ( 0 !== strpos( $hook, $h ) ) {
					continue;
				}
				foreach ( $events as $key => $v ) {
					$mine[] = array( $ts - $now, $hook, $key === md5( serialize( $v['args'] ) ), $v['schedule'], $v['args'], $v['interval'] ?? null );
				}
			}
		}
		out( 'cron array', $mine );
		// What wp-cron.php does with a recurring event it runs.
		out( 'reschedule', wp_reschedule_event( $now + 60, 'hourly', $h . '_r', array( 'x' ) ) );
		out( 'unschedule rescheduled', wp_unschedule_event( $now + 60, $h . '_r', array( 'x' ), true ) );
		$e = wp_get_scheduled_event( $h . '_r', array( 'x' ) );
		// Core counts from the time of the call: a second may have passed.
		out( 'rescheduled to', $e ? array( abs( $rel( $e->timestamp ) - 3601 ) <= 1, $e->schedule, $e->interval ?? null ) : $e );
		out( 'unschedule', wp_unschedule_event( $now + 3600, $h, array( 1 ) ) );
		out( 'unschedule again', wp_unschedule_event( $now + 3600, $h, array( 1 ), true ) );
		out( 'next after unschedule', $rel( wp_next_scheduled( $h, array( 1 ) ) ) );
		out( 'clear', wp_clear_scheduled_hook( $h, array( 1 ) ) );
		out( 'clear again', wp_clear_scheduled_hook( $h, array( 1 ) ) );
		out( 'unschedule hook', wp_unschedule_hook( $h ) );
		out( 'next after clear', wp_next_scheduled( $h, array( 2 ) ) );
		out( 'clear recurring', wp_clear_scheduled_hook( $h . '_r', array( 'x' ) ) );
		out( 'unschedule hook past', wp_unschedule_hook( $h . '_p' ) );
		out( 'nothing left', wp_next_scheduled( $h . '_r', array( 'x' ) ) );
		// Code that writes the array itself (the plugin applies the change
		// and keeps the option as it is, so the return value differs).
		$crons = _get_cron_array();
		$crons[ $now + 7200 ][ $h . '_s' ][ md5( serialize( array( 's' ) ) ) ] = array( 'schedule' => false, 'args' => array( 's' ) );
		ksort( $crons );
		_set_cron_array( $crons );
		out( 'set array: added', $rel( wp_next_scheduled( $h . '_s', array( 's' ) ) ) );
		$crons = _get_cron_array();
		unset( $crons[ $now + 7200 ][ $h . '_s' ] );
		_set_cron_array( array_filter( $crons ) );
		out( 'set array: removed', wp_next_scheduled( $h . '_s', array( 's' ) ) );
		break;

	case 'pending':
		$ran = array();
		foreach ( runs( $argv[2] ) as $r ) {
			if ( 'lq_test_single' === $r['hook'] ) {
				$ran[ $r['item'] ] = true;
			}
		}
		$n = 0;
		foreach ( scheduled( $argv[3] ) as list( $kind, $item ) ) {
			$n += ( 'single' === $kind && ! isset( $ran[ $item ] ) ) ? 1 : 0;
		}
		echo $n, "\n";
		break;

	case 'report':
		$phase  = $argv[2];
		$sched  = scheduled( $argv[3] );
		$runs   = runs( $phase );
		$c      = array(
			'single_scheduled'   => 0,
			'single_ran_once'    => 0,
			'single_missing'     => 0,
			'single_extra_runs'  => 0,
			'early_runs'         => 0,
			'recurring_occ'      => 0,
			'recurring_extra'    => 0,
			'recurring_offgrid'  => 0,
			'recurring_min_occ'  => PHP_INT_MAX,
			'pattern_runs'       => 0,
			'pattern_extra'      => 0,
			'unknown_occurrence' => 0,
		);
		$single = array();
		$start  = array();
		foreach ( $sched as list( $kind, $item, $ts ) ) {
			if ( 'single' === $kind ) {
				$single[ $item ] = $ts;
				++$c['single_scheduled'];
			} else {
				$start[ $item ] = $ts;
			}
		}
		$count = array();
		foreach ( $runs as $r ) {
			$occ = (int) $r['occurrence'];
			if ( $occ < 0 ) {
				++$c['unknown_occurrence'];
			}
			$k           = $r['hook'] . '|' . $r['item'] . '|' . $occ;
			$count[ $k ] = ( $count[ $k ] ?? 0 ) + 1;
			$due         = 'lq_test_single' === $r['hook'] ? ( $single[ $r['item'] ] ?? PHP_INT_MAX ) : $occ;
			// Seconds: WordPress's timestamps are whole seconds.
			if ( (float) $r['ran_at'] < $due ) {
				++$c['early_runs'];
			}
			if ( 'lq_test_recurring' === $r['hook'] && isset( $start[ $r['item'] ] ) && ( $occ - $start[ $r['item'] ] ) % 3 !== 0 ) {
				++$c['recurring_offgrid'];
			}
		}
		foreach ( $single as $item => $ts ) {
			$n = $count[ 'lq_test_single|' . $item . '|' . $ts ] ?? 0;
			// A run recorded under another occurrence is an extra run too.
			foreach ( $count as $k => $m ) {
				if ( 0 === strpos( $k, 'lq_test_single|' . $item . '|' ) && $k !== 'lq_test_single|' . $item . '|' . $ts ) {
					$n += $m;
				}
			}
			if ( 0 === $n ) {
				++$c['single_missing'];
			} else {
				$c['single_ran_once']   += 1;
				$c['single_extra_runs'] += $n - 1;
			}
		}
		$per = array();
		foreach ( $count as $k => $m ) {
			list( $hook, $item ) = explode( '|', $k );
			if ( 'lq_test_recurring' === $hook ) {
				++$c['recurring_occ'];
				$c['recurring_extra'] += $m - 1;
				$per[ $item ]          = ( $per[ $item ] ?? 0 ) + 1;
			} elseif ( 'lq_test_pattern' === $hook ) {
				$c['pattern_runs']  += $m;
				$c['pattern_extra'] += $m - 1;
			}
		}
		foreach ( array_keys( $start ) as $item ) {
			$c['recurring_min_occ'] = min( $c['recurring_min_occ'], $per[ $item ] ?? 0 );
		}
		echo json_encode( $c ), "\n";
		break;

	default:
		fwrite( STDERR, "usage: wp.php install|mode|schedule|unschedule|api|pending|report|pattern|next|throwing|runs ...\n" );
		exit( 64 );
}
