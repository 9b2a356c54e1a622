#!/usr/bin/env bash
# Boot the AVD headless, make it ready for android_gym, publish its ports, and run until the emulator exits.
#
# The emulator binds its console, adb and gRPC ports on loopback only, so it runs on internal ports
# (console 5556, adb 5557, gRPC 8556) and socat publishes them on every interface as 5554, 5555 and 8554: a host
# adb server that starts after the container is up finds it as emulator-5554, like a local emulator.
# Facts: emulator flags and the boot_completed/animation/root steps as in shared/reference (emulator in a
# container); an empty ~/.emulator_console_auth_token disables console authentication (emulator console_auth.cpp).
set -euo pipefail

AVD_NAME="${AVD_NAME:-AndroidWorldAvd}"
BOOT_TIMEOUT="${BOOT_TIMEOUT:-600}"          # seconds; a cold boot takes 30-90 s with KVM
SETUP_DEVICE="${SETUP_DEVICE:-1}"            # 1: run `android-gym setup-device` after the first boot
EMULATOR_MEMORY="${EMULATOR_MEMORY:-4096}"   # MiB of guest RAM
read -r -a EXTRA_ARGS <<< "${EMULATOR_ARGS:-}"

CONSOLE_PORT=5556
ADB_PORT=5557
GRPC_PORT=8556
SERIAL="emulator-${CONSOLE_PORT}"
SETUP_MARKER="${HOME}/.android/android_gym_setup_done"

log() { echo "entrypoint: $*" >&2; }

if [[ ! -e /dev/kvm ]]; then
    log "/dev/kvm is missing: run the container with --device /dev/kvm on a KVM host (docker/README.md)"
    exit 1
fi

# The console is published (on the host's loopback in compose.yaml); without a token the host's `adb emu` and
# android_gym's console client can use it, e.g. to deliver incoming SMS.
: > "${HOME}/.emulator_console_auth_token"

# Start adb's server before anything listens on 5555: it scans the odd ports 5555-5585 once at start, and must
# find the emulator itself (which announces itself), not socat's forward of it.
adb start-server

emulator -avd "${AVD_NAME}" -no-window -no-snapshot -no-boot-anim -no-audio -gpu swiftshader_indirect \
    -memory "${EMULATOR_MEMORY}" -grpc "${GRPC_PORT}" -ports "${CONSOLE_PORT},${ADB_PORT}" -skip-adb-auth \
    "${EXTRA_ARGS[@]}" &
emulator_pid=$!

stop_emulator() {
    log "stopping the emulator"
    adb -s "${SERIAL}" emu kill >/dev/null 2>&1 || kill "${emulator_pid}" 2>/dev/null || true
}
trap stop_emulator TERM INT

log "waiting up to ${BOOT_TIMEOUT} s for ${SERIAL} to boot"
deadline=$((SECONDS + BOOT_TIMEOUT))
until [[ "$(adb -s "${SERIAL}" shell getprop sys.boot_completed 2>/dev/null | tr -d '\r')" == "1" ]]; do
    if ! kill -0 "${emulator_pid}" 2>/dev/null; then
        log "the emulator exited before it booted"
        wait "${emulator_pid}" || exit $?
        exit 1
    fi
    if ((SECONDS >= deadline)); then
        log "${SERIAL} did not boot within ${BOOT_TIMEOUT} s"
        stop_emulator
        exit 1
    fi
    sleep 2
done
log "${SERIAL} booted"

for setting in window_animation_scale transition_animation_scale animator_duration_scale; do
    adb -s "${SERIAL}" shell settings put global "${setting}" 0
done
adb -s "${SERIAL}" root
adb -s "${SERIAL}" wait-for-device

if [[ "${SETUP_DEVICE}" == "1" && ! -e "${SETUP_MARKER}" ]] && command -v android-gym >/dev/null; then
    # Installs the tasks' apps, sets the time, snapshots app data and saves the emulator snapshot
    # android_gym_ready over gRPC; a failure leaves a usable, unprovisioned device.
    if android-gym setup-device --device "adb:${SERIAL}" --grpc "localhost:${GRPC_PORT}"; then
        touch "${SETUP_MARKER}"
    else
        log "android-gym setup-device failed; the emulator keeps running (retry: docker exec … android-gym setup-device)"
    fi
fi

socat "tcp-listen:5554,fork,reuseaddr" "tcp:127.0.0.1:${CONSOLE_PORT}" &
socat "tcp-listen:5555,fork,reuseaddr" "tcp:127.0.0.1:${ADB_PORT}" &
socat "tcp-listen:8554,fork,reuseaddr" "tcp:127.0.0.1:${GRPC_PORT}" &
log "ready: console 5554, adb 5555, gRPC 8554"

# `wait` returns early when a trapped signal arrives; keep waiting until the emulator itself is gone.
status=0
while kill -0 "${emulator_pid}" 2>/dev/null; do
    wait "${emulator_pid}" || status=$?
done
exit "${status}"
