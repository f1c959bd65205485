<?php
/**
 * Plugin Name:       leaseq cron
 * Description:       Runs each WP-Cron event exactly once across web servers and overlapping requests: events are stored as leaseq tasks and run through claims (ext-leaseq).
 * Version:           0.2.0
 * Requires at least: 5.1
 * Requires PHP:      8.1
 *
 * How it fits WordPress (5.1 and later): the pre_* filters of the cron API
 * (schedule, reschedule, unschedule, clear, unschedule hook, get event,
 * ready jobs) answer from leaseq's task table instead of the "cron" option,
 * and pre_option_cron / pre_update_option_cron keep _get_cron_array() and
 * _set_cron_array() true for code and admin screens that use the array.
 *
 * Storage: one leaseq queue per site ("wp-cron:" + the table prefix, or
 * LEASEQ_CRON_QUEUE).  A single event is a one-off task due at its
 * timestamp; a recurring event is a recurring task (every = its interval)
 * whose row stays, each occurrence claimed by exactly one runner.  The task
 * name is the hook; the payload is serialize()d args, schedule and
 * interval; the unique key is the event's identity (hook, md5 of the
 * serialized args, and the schedule or, for a single event, its timestamp),
 * so the same recurring event scheduled twice by racing requests is one task.
 *
 * Running: WordPress never sees a ready job (pre_get_ready_cron_jobs answers
 * []), so neither its spawn nor wp-cron.php runs anything itself.  On a page
 * hit with an event due, the plugin either runs a leaseq tick after the
 * response (when fastcgi_finish_request() exists) or spawns wp-cron.php as
 * WordPress does; wp-cron.php then runs the tick.  The tick takes the runner
 * lease of the queue and claims due occurrences at-most-once (a one-off task
 * is deleted by its claim, a recurring task's due time moves on): an
 * occurrence runs once however many servers and requests tick at the same
 * moment.  A callback that dies with its PHP process loses that run, as
 * WP-Cron does.
 */

defined( 'ABSPATH' ) || exit;

final class Leaseq_Cron {
	/** Version of the payload layout. */
	const PAYLOAD_VERSION = 1;

	/** @var Leaseq_Cron|null */
	private static $instance = null;

	/** @var \Leaseq\Db|null */
	private $db = null;

	/** @var array queue => its events, read once per request (see events()). */
	private $events = array();

	/** @var array task id => payload array, read on demand. */
	private $payloads = array();

	/** @var bool the tick of this request has run (or is running). */
	private $ticked = false;

	/** @var array "hook|md5|timestamp" => true: occurrences this request moved on (pre_reschedule_event()). */
	private $rescheduled = array();

	/** @var bool a trigger is already arranged for this request. */
	private $triggered = false;

	/** @var object|null the event whose callbacks run now (see leaseq_cron_current_event()). */
	public $current = null;

	public static function instance() {
		if ( null === self::$instance ) {
			self::$instance = new self();
		}
		return self::$instance;
	}

	/* ------------------------------------------------------------ setup */

	/** The DSN: LEASEQ_CRON_DSN in wp-config.php, else the LEASEQ_DSN environment variable; null when neither. */
	public static function dsn() {
		if ( defined( 'LEASEQ_CRON_DSN' ) && '' !== (string) LEASEQ_CRON_DSN ) {
			return (string) LEASEQ_CRON_DSN;
		}
		$env = getenv( 'LEASEQ_DSN' );
		return ( false !== $env && '' !== $env ) ? $env : null;
	}

	/** Why the plugin cannot take over (null: it can). */
	public static function unusable() {
		if ( ! class_exists( '\Leaseq\Db' ) ) {
			return 'the PHP extension leaseq (ext-leaseq) is not loaded';
		}
		if ( ! method_exists( '\Leaseq\Db', 'remove' ) ) {
			return 'the PHP extension leaseq (ext-leaseq) is too old (it has no Leaseq\Db::remove())';
		}
		if ( null === self::dsn() ) {
			return 'neither LEASEQ_CRON_DSN (wp-config.php) nor the LEASEQ_DSN environment variable is set';
		}
		return null;
	}

	/** The queue of this site's events. */
	public function queue() {
		global $wpdb;
		if ( defined( 'LEASEQ_CRON_QUEUE' ) && '' !== (string) LEASEQ_CRON_QUEUE ) {
			return (string) LEASEQ_CRON_QUEUE;
		}
		return 'wp-cron:' . $wpdb->prefix;
	}

	public function db() {
		if ( null === $this->db ) {
			$this->db = new \Leaseq\Db( self::dsn(), true );
		}
		return $this->db;
	}

	/** Hook into the cron API.  Nothing when the extension or the DSN is missing: WP-Cron then works as before. */
	public function register() {
		if ( null !== self::unusable() ) {
			add_action( 'admin_notices', array( $this, 'notice' ) );
			return;
		}
		add_filter( 'pre_schedule_event', array( $this, 'pre_schedule_event' ), 10, 3 );
		add_filter( 'pre_reschedule_event', array( $this, 'pre_reschedule_event' ), 10, 3 );
		add_filter( 'pre_unschedule_event', array( $this, 'pre_unschedule_event' ), 10, 5 );
		add_filter( 'pre_clear_scheduled_hook', array( $this, 'pre_clear_scheduled_hook' ), 10, 4 );
		add_filter( 'pre_unschedule_hook', array( $this, 'pre_unschedule_hook' ), 10, 3 );
		add_filter( 'pre_get_scheduled_event', array( $this, 'pre_get_scheduled_event' ), 10, 4 );
		add_filter( 'pre_get_ready_cron_jobs', array( $this, 'pre_get_ready_cron_jobs' ), 10, 1 );
		add_filter( 'pre_option_cron', array( $this, 'pre_option_cron' ), 10, 1 );
		add_filter( 'pre_update_option_cron', array( $this, 'pre_update_option_cron' ), 10, 2 );
	}

	public function notice() {
		if ( current_user_can( 'activate_plugins' ) ) {
			printf(
				'<div class="notice notice-warning"><p>%s</p></div>',
				esc_html( 'leaseq cron is inactive, WP-Cron runs as usual: ' . self::unusable() . '.' )
			);
		}
	}

	/** Activation: the schema, then the events of the "cron" option move into leaseq. */
	public static function activate() {
		$why = self::unusable();
		if ( null !== $why ) {
			deactivate_plugins( plugin_basename( __FILE__ ) );
			wp_die( esc_html( 'leaseq cron cannot be activated: ' . $why . '.' ) );
		}
		$self = self::instance();
		try {
			$self->db()->migrate();
		} catch ( \Leaseq\Exception $e ) {
			deactivate_plugins( plugin_basename( __FILE__ ) );
			wp_die( esc_html( 'leaseq cron cannot be activated: ' . $e->getMessage() ) );
		}
		$crons = $self->raw_cron_option();
		foreach ( $crons as $ts => $hooks ) {
			foreach ( (array) $hooks as $hook => $events ) {
				foreach ( (array) $events as $e ) {
					$self->add_event( (string) $hook, (int) $ts, $e['args'] ?? array(), $e['schedule'] ?? false, $e['interval'] ?? 0 );
				}
			}
		}
		// The events live in leaseq now: the option would run them a second time after a deactivation.
		$self->write_raw_cron_option( array() );
	}

	/** Deactivation: the events go back to the "cron" option, where WP-Cron finds them. */
	public static function deactivate() {
		if ( null !== self::unusable() ) {
			return;
		}
		$self  = self::instance();
		$crons = $self->cron_array();
		$self->write_raw_cron_option( $crons );
		foreach ( $self->events( true ) as $e ) {
			$self->remove_task( $e['id'] );
		}
	}

	private function raw_cron_option() {
		remove_filter( 'pre_option_cron', array( $this, 'pre_option_cron' ), 10 );
		wp_cache_delete( 'alloptions', 'options' );
		wp_cache_delete( 'cron', 'options' );
		$crons = get_option( 'cron' );
		add_filter( 'pre_option_cron', array( $this, 'pre_option_cron' ), 10, 1 );
		if ( ! is_array( $crons ) ) {
			return array();
		}
		unset( $crons['version'] );
		return $crons;
	}

	private function write_raw_cron_option( array $crons ) {
		remove_filter( 'pre_update_option_cron', array( $this, 'pre_update_option_cron' ), 10 );
		remove_filter( 'pre_option_cron', array( $this, 'pre_option_cron' ), 10 );
		$crons['version'] = 2;
		update_option( 'cron', $crons );
		add_filter( 'pre_option_cron', array( $this, 'pre_option_cron' ), 10, 1 );
		add_filter( 'pre_update_option_cron', array( $this, 'pre_update_option_cron' ), 10, 2 );
	}

	/* ------------------------------------------------------------ identity */

	/** WordPress's key of an event's arguments. */
	private static function args_key( $args ) {
		return md5( serialize( $args ) );
	}

	/**
	 * The unique key: "MD5|at|TIMESTAMP|QUEUE|HOOK" for a single event,
	 * "MD5|every|SCHEDULE|QUEUE|HOOK" for a recurring one.  The fields that
	 * are read back come first; a schedule name that holds "|" or is long,
	 * and a queue and hook too long for the key, are replaced by their md5
	 * (the listing then reads the schedule from the payload).
	 */
	private function unique_key( $hook, $md5, $schedule, $ts ) {
		if ( false === $schedule ) {
			$head = $md5 . '|at|' . (int) $ts . '|';
		} else {
			$s    = ( strlen( $schedule ) > 64 || false !== strpos( $schedule, '|' ) ) ? 'md5:' . md5( $schedule ) : $schedule;
			$head = $md5 . '|every|' . $s . '|';
		}
		$ident = $this->queue() . '|' . $hook;
		if ( strlen( $head ) + strlen( $ident ) > 255 || ! self::valid_utf8( $ident ) ) {
			$ident = 'md5:' . md5( $ident );
		}
		return $head . $ident;
	}

	private static function valid_utf8( $s ) {
		return 1 === preg_match( '//u', $s );
	}

	/** An event of the listing from a task, or null when the task is not one of ours. */
	private function event_of_task( $t ) {
		$key = (string) $t->uniqueKey;
		$f   = explode( '|', $key, 4 );
		if ( 4 !== count( $f ) || 32 !== strlen( $f[0] ) ) {
			// Enqueued by hand (leasectl task add HOOK --queue ...): do_action(HOOK) with no arguments.
			return array(
				'id'       => $t->id,
				'hook'     => $t->name,
				'ts'       => intdiv( $t->runAtMs, 1000 ),
				'md5'      => self::args_key( array() ),
				'schedule' => false,
				'interval' => 0,
			);
		}
		if ( ! $t->recurring ) {
			$schedule = false;
		} elseif ( 0 === strncmp( $f[2], 'md5:', 4 ) ) {
			$p        = $this->payload( $t->id );
			$schedule = $p ? $p['schedule'] : $f[2];
		} else {
			$schedule = $f[2];
		}
		return array(
			'id'       => $t->id,
			'hook'     => $t->name,
			'ts'       => intdiv( $t->runAtMs, 1000 ),
			'md5'      => $f[0],
			'schedule' => $schedule,
			// The interval the event was scheduled with, as core keeps it: the task's own.
			'interval' => intdiv( $t->everyMs, 1000 ),
		);
	}

	/* ------------------------------------------------------------ reading */

	/**
	 * The queue's events, by due time then id (the order of WordPress's
	 * array).  Read once per request and again after this request changed
	 * them; $fresh reads them now.
	 */
	private function events( $fresh = false ) {
		$queue = $this->queue(); // per site: switch_to_blog() changes it
		if ( isset( $this->events[ $queue ] ) && ! $fresh ) {
			return $this->events[ $queue ];
		}
		$events = array();
		foreach ( $this->db()->tasks( $queue ) as $t ) {
			$e = $this->event_of_task( $t );
			if ( null !== $e ) {
				$events[] = $e;
			}
		}
		usort(
			$events,
			static function ( $a, $b ) {
				return array( $a['ts'], $a['id'] ) <=> array( $b['ts'], $b['id'] );
			}
		);
		$this->events[ $queue ] = $events;
		return $events;
	}

	private function changed() {
		$this->events = array();
	}

	/** The stored payload of a task: ['args', 'schedule', 'interval'] (null: gone or unreadable). */
	private function payload( $id ) {
		if ( ! array_key_exists( $id, $this->payloads ) ) {
			$t                     = $this->db()->task( $id );
			$this->payloads[ $id ] = $t ? self::decode_payload( $t->payload ) : null;
		}
		return $this->payloads[ $id ];
	}

	private static function decode_payload( $payload ) {
		if ( null === $payload || '' === $payload ) {
			return array( 'args' => array(), 'schedule' => false, 'interval' => 0 );
		}
		$p = @unserialize( $payload ); // phpcs:ignore -- the option WP-Cron keeps is serialize()d the same way
		if ( ! is_array( $p ) || ! isset( $p['args'] ) || ! is_array( $p['args'] ) ) {
			return null;
		}
		return $p + array( 'schedule' => false, 'interval' => 0 );
	}

	/** The interval of a schedule WordPress knows now (0: none), for an event given without one. */
	private static function interval_of( $schedule ) {
		if ( false === $schedule ) {
			return 0;
		}
		$schedules = wp_get_schedules();
		return isset( $schedules[ $schedule ]['interval'] ) ? (int) $schedules[ $schedule ]['interval'] : 0;
	}

	/** The event object wp_get_scheduled_event() answers. */
	private function event_object( array $e, $args ) {
		$o = (object) array(
			'hook'      => $e['hook'],
			'timestamp' => $e['ts'],
			'schedule'  => $e['schedule'],
			'args'      => $args,
		);
		if ( false !== $e['schedule'] ) {
			$o->interval = $e['interval'];
		}
		return $o;
	}

	/** WordPress's cron array (without 'version'), payloads included: for admin screens and _get_cron_array(). */
	public function cron_array() {
		$crons = array();
		foreach ( $this->events() as $e ) {
			$p = $this->payload( $e['id'] );
			if ( null === $p ) {
				continue;
			}
			$entry = array(
				'schedule' => $e['schedule'],
				'args'     => $p['args'],
			);
			if ( false !== $e['schedule'] ) {
				$entry['interval'] = $e['interval'];
			}
			$crons[ $e['ts'] ][ $e['hook'] ][ $e['md5'] ] = $entry;
		}
		uksort( $crons, 'strnatcasecmp' );
		return $crons;
	}

	/* ------------------------------------------------------------ writing */

	private static function error( $code, $message ) {
		return new WP_Error( $code, $message );
	}

	private static function failed( \Throwable $e, $what ) {
		error_log( 'leaseq cron: ' . $what . ': ' . $e->getMessage() ); // phpcs:ignore
		return self::error( 'could_not_set', 'leaseq cron: ' . $what . ': ' . $e->getMessage() );
	}

	/** Store one event as a task.  true, or a WP_Error. */
	private function add_event( $hook, $ts, $args, $schedule, $interval, $md5 = null ) {
		if ( ! is_string( $hook ) || '' === $hook || strlen( $hook ) > 255 || ! self::valid_utf8( $hook ) ) {
			return self::error( 'invalid_hook', 'leaseq cron: a hook name must be 1 to 255 bytes of UTF-8.' );
		}
		$md5     = $md5 ?? self::args_key( $args );
		$options = array(
			'queue'  => $this->queue(),
			'runAt'  => (int) $ts,
			'unique' => $this->unique_key( $hook, $md5, $schedule, $ts ),
		);
		if ( false === $schedule ) {
			// A failed callback is not run again (as WP-Cron); it stays among the dead tasks with its error.
			$options['maxAttempts'] = 1;
		} else {
			if ( (int) $interval <= 0 ) {
				return self::error( 'invalid_schedule', __( 'Event schedule does not exist.' ) );
			}
			$options['every'] = (int) $interval;
		}
		$payload = serialize(
			array(
				'v'        => self::PAYLOAD_VERSION,
				'args'     => $args,
				'schedule' => $schedule,
				'interval' => (int) $interval,
			)
		);
		try {
			$this->db()->add( $hook, $payload, $options );
		} catch ( \Throwable $e ) {
			return self::failed( $e, 'cannot schedule ' . $hook );
		}
		$this->changed();
		return true;
	}

	/** Delete a task: true, or false when it was gone already (run or removed elsewhere). */
	private function remove_task( $id ) {
		$removed = $this->db()->remove( (int) $id );
		$this->changed();
		return $removed;
	}

	/**
	 * Core's rule for single events: none within ten minutes of an
	 * identical one (same hook and arguments), all past ones counting when
	 * the new one is due within ten minutes.  The check and the insert hold
	 * a lease on the identity, so two requests cannot both pass it.
	 */
	public function pre_schedule_event( $pre, $event, $wp_error = false ) {
		if ( null !== $pre ) {
			return $pre;
		}
		$hook = $event->hook;
		$ts   = (int) $event->timestamp;
		try {
			if ( false !== $event->schedule ) {
				$event = apply_filters( 'schedule_event', $event );
				if ( ! $event ) {
					return self::error( 'schedule_event_false', __( 'A plugin disallowed this event.' ) );
				}
				return $this->add_event( $event->hook, (int) $event->timestamp, $event->args, $event->schedule, $event->interval ?? self::interval_of( $event->schedule ) );
			}

			$md5   = self::args_key( $event->args );
			$lease = $this->db()->acquire( 'wp-cron:schedule:' . md5( $this->queue() . '|' . $hook . '|' . $md5 ), 10, 10 );
			try {
				$now = intdiv( $this->db()->now(), 1000 );
				$min = ( $ts < $now + 10 * MINUTE_IN_SECONDS ) ? 0 : $ts - 10 * MINUTE_IN_SECONDS;
				$max = ( $ts < $now ) ? $now + 10 * MINUTE_IN_SECONDS : $ts + 10 * MINUTE_IN_SECONDS;
				foreach ( $this->events( true ) as $e ) {
					if ( $e['hook'] === $hook && $e['md5'] === $md5 && $e['ts'] >= $min && $e['ts'] <= $max ) {
						return self::error( 'duplicate_event', __( 'A duplicate event already exists.' ) );
					}
				}
				$event = apply_filters( 'schedule_event', $event );
				if ( ! $event ) {
					return self::error( 'schedule_event_false', __( 'A plugin disallowed this event.' ) );
				}
				// As core: the key of the arguments before the filter.
				return $this->add_event( $event->hook, (int) $event->timestamp, $event->args, false, 0, $md5 );
			} finally {
				$lease->release();
			}
		} catch ( \Throwable $e ) {
			return self::failed( $e, 'cannot schedule ' . $hook );
		}
	}

	/**
	 * A recurring event's next occurrence.  The tick moves a recurring task
	 * on by itself; this is for code that runs events the way wp-cron.php
	 * does, wp_reschedule_event() then wp_unschedule_event() of the old
	 * time: the task (one row per recurring event) moves to the next time
	 * core would pick, and the unschedule of the old time that follows
	 * succeeds, as it does in core.
	 */
	public function pre_reschedule_event( $pre, $event, $wp_error = false ) {
		if ( null !== $pre ) {
			return $pre;
		}
		$interval = (int) ( $event->interval ?? 0 );
		if ( 0 === $interval ) {
			return self::error( 'invalid_schedule', __( 'Event schedule does not exist.' ) );
		}
		try {
			$ts  = (int) $event->timestamp;
			$now = intdiv( $this->db()->now(), 1000 );
			$md5 = self::args_key( $event->args );
			if ( $ts >= $now ) {
				$next = $now + $interval;
			} else {
				$next = $now + ( $interval - ( ( $now - $ts ) % $interval ) );
			}
			foreach ( $this->events( true ) as $e ) {
				if ( $e['hook'] === $event->hook && $e['md5'] === $md5 && $e['schedule'] === $event->schedule ) {
					if ( $e['ts'] > $ts ) {
						return true; // moved on already
					}
					$this->remove_task( $e['id'] );
				}
			}
			$r = $this->add_event( $event->hook, $next, $event->args, $event->schedule, $interval );
			if ( true === $r ) {
				$this->rescheduled[ $event->hook . '|' . $md5 . '|' . $ts ] = true;
			}
			return $r;
		} catch ( \Throwable $e ) {
			return self::failed( $e, 'cannot reschedule ' . $event->hook );
		}
	}

	/** Remove the events that match; the number removed, or a WP_Error. */
	private function remove_matching( callable $match, $what ) {
		try {
			$n = 0;
			foreach ( $this->events( true ) as $e ) {
				if ( $match( $e ) && $this->remove_task( $e['id'] ) ) {
					++$n;
				}
			}
			return $n;
		} catch ( \Throwable $e ) {
			return self::failed( $e, 'cannot unschedule ' . $what );
		}
	}

	public function pre_unschedule_event( $pre, $timestamp, $hook, $args, $wp_error = false ) {
		if ( null !== $pre ) {
			return $pre;
		}
		$md5 = self::args_key( $args );
		$ts  = (int) $timestamp;
		$n   = $this->remove_matching(
			static function ( $e ) use ( $hook, $md5, $ts ) {
				return $e['hook'] === $hook && $e['md5'] === $md5 && $e['ts'] === $ts;
			},
			$hook
		);
		if ( is_wp_error( $n ) ) {
			return $n;
		}
		if ( isset( $this->rescheduled[ $hook . '|' . $md5 . '|' . $ts ] ) ) {
			unset( $this->rescheduled[ $hook . '|' . $md5 . '|' . $ts ] );
			return true; // the occurrence moved on in pre_reschedule_event()
		}
		// As core, whose update_option() reports false when nothing changed.
		return $n > 0 ? true : self::error( 'could_not_set', __( 'The cron event list could not be saved.' ) );
	}

	public function pre_clear_scheduled_hook( $pre, $hook, $args, $wp_error = false ) {
		if ( null !== $pre ) {
			return $pre;
		}
		$md5 = self::args_key( $args );
		return $this->remove_matching(
			static function ( $e ) use ( $hook, $md5 ) {
				return $e['hook'] === $hook && $e['md5'] === $md5;
			},
			$hook
		);
	}

	public function pre_unschedule_hook( $pre, $hook, $wp_error = false ) {
		if ( null !== $pre ) {
			return $pre;
		}
		return $this->remove_matching(
			static function ( $e ) use ( $hook ) {
				return $e['hook'] === $hook;
			},
			$hook
		);
	}

	public function pre_get_scheduled_event( $pre, $hook, $args, $timestamp ) {
		if ( null !== $pre ) {
			return $pre;
		}
		if ( null !== $timestamp && ! is_numeric( $timestamp ) ) {
			return false;
		}
		$md5 = self::args_key( $args );
		try {
			foreach ( $this->events() as $e ) {
				if ( $e['hook'] === $hook && $e['md5'] === $md5 && ( ! $timestamp || (int) $timestamp === $e['ts'] ) ) {
					return $this->event_object( $e, $args );
				}
			}
		} catch ( \Throwable $e ) {
			error_log( 'leaseq cron: cannot read the events: ' . $e->getMessage() ); // phpcs:ignore
		}
		return false;
	}

	/** The whole array, for code that reads the "cron" option (admin screens, _get_cron_array()). */
	public function pre_option_cron( $pre ) {
		if ( false !== $pre ) {
			return $pre;
		}
		try {
			return array( 'version' => 2 ) + $this->cron_array();
		} catch ( \Throwable $e ) {
			error_log( 'leaseq cron: cannot read the events: ' . $e->getMessage() ); // phpcs:ignore
			return array( 'version' => 2 );
		}
	}

	/**
	 * Code that writes the array itself (_set_cron_array()): what it added
	 * is scheduled, what it dropped is removed, and the option stays as it
	 * is (so update_option(), and _set_cron_array(), answer false).
	 */
	public function pre_update_option_cron( $value, $old_value ) {
		if ( ! is_array( $value ) ) {
			return $old_value;
		}
		unset( $value['version'] );
		try {
			$have = array();
			foreach ( $this->events( true ) as $e ) {
				$have[ $e['ts'] . '|' . $e['hook'] . '|' . $e['md5'] ][] = $e['id'];
			}
			foreach ( $value as $ts => $hooks ) {
				foreach ( (array) $hooks as $hook => $events ) {
					foreach ( (array) $events as $md5 => $v ) {
						$k = (int) $ts . '|' . $hook . '|' . $md5;
						if ( isset( $have[ $k ] ) ) {
							unset( $have[ $k ] );
							continue;
						}
						$schedule = $v['schedule'] ?? false;
						$this->add_event( (string) $hook, (int) $ts, $v['args'] ?? array(), $schedule, $v['interval'] ?? self::interval_of( $schedule ) );
					}
				}
			}
			foreach ( $have as $ids ) {
				foreach ( $ids as $id ) {
					$this->remove_task( $id );
				}
			}
		} catch ( \Throwable $e ) {
			error_log( 'leaseq cron: cannot store the cron array: ' . $e->getMessage() ); // phpcs:ignore
		}
		return $old_value;
	}

	/* ------------------------------------------------------------ running */

	/**
	 * WordPress asks what is ready: in wp-cron.php (DOING_CRON) the tick
	 * runs here; on a page hit a tick is arranged if something is due.
	 * WordPress itself is never handed a job.
	 */
	public function pre_get_ready_cron_jobs( $pre ) {
		if ( null !== $pre ) {
			return $pre;
		}
		if ( wp_doing_cron() ) {
			$this->tick();
		} elseif ( ! $this->triggered && ! ( defined( 'DISABLE_WP_CRON' ) && DISABLE_WP_CRON ) ) {
			$this->triggered = true;
			try {
				if ( $this->something_due() ) {
					$this->trigger();
				}
			} catch ( \Throwable $e ) {
				error_log( 'leaseq cron: ' . $e->getMessage() ); // phpcs:ignore
			}
		}
		return array();
	}

	/** Whether an event may be due (the claim decides on the database clock; this only saves work). */
	private function something_due() {
		if ( isset( $this->events[ $this->queue() ] ) ) {
			$now = time();
			foreach ( $this->events[ $this->queue() ] as $e ) {
				if ( $e['ts'] <= $now ) {
					return true;
				}
			}
			return false;
		}
		return array() !== $this->db()->tasks( $this->queue(), false, true );
	}

	/** The trigger: "inline" (after the response), "spawn" (wp-cron.php, as core), or "off". */
	private static function trigger_mode() {
		if ( defined( 'LEASEQ_CRON_TRIGGER' ) ) {
			return (string) LEASEQ_CRON_TRIGGER;
		}
		return ( function_exists( 'fastcgi_finish_request' ) || function_exists( 'litespeed_finish_request' ) ) ? 'inline' : 'spawn';
	}

	private function trigger() {
		$mode = self::trigger_mode();
		if ( 'inline' === $mode ) {
			add_action( 'shutdown', array( $this, 'tick_after_response' ), PHP_INT_MAX );
		} elseif ( 'spawn' === $mode ) {
			$this->spawn();
		}
	}

	public function tick_after_response() {
		if ( function_exists( 'fastcgi_finish_request' ) ) {
			fastcgi_finish_request();
		} elseif ( function_exists( 'litespeed_finish_request' ) ) {
			litespeed_finish_request();
		}
		$this->tick();
	}

	/**
	 * Ask wp-cron.php to tick, as spawn_cron() does, at most about once a
	 * second (a transient: a race only costs a spawn that finds the runner
	 * busy; a spawned tick runs everything due).
	 */
	private function spawn() {
		$last = (float) get_transient( 'leaseq_cron_spawn' );
		if ( $last + 1 > microtime( true ) ) {
			return;
		}
		set_transient( 'leaseq_cron_spawn', sprintf( '%.6F', microtime( true ) ), 60 );
		$key = sprintf( '%.22F', microtime( true ) );
		/** This filter is documented in wp-includes/cron.php */
		$request = apply_filters(
			'cron_request',
			array(
				'url'  => add_query_arg( 'doing_wp_cron', $key, site_url( 'wp-cron.php' ) ),
				'key'  => $key,
				'args' => array(
					'timeout'   => 0.01,
					'blocking'  => false,
					/** This filter is documented in wp-includes/class-wp-http-streams.php */
					'sslverify' => apply_filters( 'https_local_ssl_verify', false ),
				),
			),
			$key
		);
		wp_remote_post( $request['url'], $request['args'] );
	}

	/** The time a tick may use: LEASEQ_CRON_BUDGET seconds, else what is left of max_execution_time, at most 25 s. */
	private static function budget() {
		if ( defined( 'LEASEQ_CRON_BUDGET' ) ) {
			return LEASEQ_CRON_BUDGET;
		}
		$limit = (int) ini_get( 'max_execution_time' );
		$used  = isset( $_SERVER['REQUEST_TIME_FLOAT'] ) ? microtime( true ) - (float) $_SERVER['REQUEST_TIME_FLOAT'] : 0;
		$left  = $limit > 0 ? $limit - $used - 2 : 25;
		return max( 1, min( 25, $left ) );
	}

	/** Run the due occurrences of this site's queue, once per request. */
	public function tick() {
		if ( $this->ticked ) {
			return null;
		}
		$this->ticked = true;
		$user         = get_current_user_id();
		$doing_cron   = static function () {
			return true;
		};
		// As in wp-cron.php: no visitor's identity, wp_doing_cron() true.
		wp_set_current_user( 0 );
		add_filter( 'wp_doing_cron', $doing_cron );
		try {
			return \Leaseq\Runner::tick(
				$this->db(),
				array( '*' => array( $this, 'run_task' ) ),
				self::budget(),
				array(
					'queue'       => $this->queue(),
					'atLeastOnce' => false,
				)
			);
		} catch ( \Throwable $e ) {
			error_log( 'leaseq cron: tick: ' . $e->getMessage() ); // phpcs:ignore
			return null;
		} finally {
			remove_filter( 'wp_doing_cron', $doing_cron );
			wp_set_current_user( $user );
			$this->changed();
		}
	}

	/** One claimed occurrence: its hook's callbacks, as wp-cron.php calls them. */
	public function run_task( \Leaseq\Task $task ) {
		$p = self::decode_payload( $task->payload );
		if ( null === $p ) {
			throw new \UnexpectedValueException( 'task ' . $task->id . ' (' . $task->name . '): the payload is not an event of leaseq cron' );
		}
		$this->current = (object) array(
			'hook'      => $task->name,
			'timestamp' => intdiv( $task->runAtMs, 1000 ),
			'schedule'  => $p['schedule'],
			'args'      => $p['args'],
			'taskId'    => $task->id,
		);
		if ( false !== $p['schedule'] ) {
			$this->current->interval = intdiv( $task->everyMs, 1000 );
		}
		try {
			do_action_ref_array( $task->name, $p['args'] );
		} finally {
			$this->current = null;
		}
	}
}

/**
 * The event whose callbacks run now (hook, timestamp of this occurrence,
 * schedule, args, interval, taskId), or null outside a leaseq cron run.
 */
function leaseq_cron_current_event() {
	return Leaseq_Cron::instance()->current;
}

register_activation_hook( __FILE__, array( 'Leaseq_Cron', 'activate' ) );
register_deactivation_hook( __FILE__, array( 'Leaseq_Cron', 'deactivate' ) );
Leaseq_Cron::instance()->register();
