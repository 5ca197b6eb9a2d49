"""The seam's part for the system's power management (core/base/oscalls.py holds the rest, and the switches).

`unthrottled()`: while a job runs, the process is not slowed because its window is hidden or the laptop is
on battery: macOS's App Nap lowers the timers and priority of an app nobody looks at, and Windows 11's
power throttling (EcoQoS) runs a background process on the slow cores. Either way a sweep measured while
the learner reads another window came out slower than the machine is. Nothing to do on Linux.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from gpudemo.core.base import oscalls

# Windows (processthreadsapi.h, winbase.h): ProcessPowerThrottling's class, version and flag; the execution state.
_PROCESS_POWER_THROTTLING = 4
_POWER_THROTTLING_VERSION = 1
_POWER_THROTTLING_EXECUTION_SPEED = 0x1
_ES_CONTINUOUS, _ES_SYSTEM_REQUIRED = 0x80000000, 0x00000001
# macOS (NSProcessInfo.h): NSActivityUserInitiated | NSActivityLatencyCritical.
_NS_ACTIVITY_OPTIONS = 0x00FFFFFF | 0xFF00000000


@contextmanager
def unthrottled(reason: str = "gpudemo is training") -> Iterator[None]:
    """Hold the process at full speed for the block (see the module's notes); never fails a job: where the
    system refuses, the job runs as it would have."""
    end = None
    try:
        if oscalls.WINDOWS:
            end = _windows_unthrottled()
        elif oscalls.MACOS:
            end = _macos_unthrottled(reason)
    except (OSError, AttributeError, TypeError, ValueError):
        end = None
    try:
        yield
    finally:
        if end is not None:
            try:
                end()
            except (OSError, AttributeError, TypeError, ValueError):
                pass


def _throttling_state(control: int, state: int):
    """A PROCESS_POWER_THROTTLING_STATE: which throttling the process decides (control), and which it wants."""
    import ctypes

    class State(ctypes.Structure):
        _fields_ = [("Version", ctypes.c_ulong), ("ControlMask", ctypes.c_ulong), ("StateMask", ctypes.c_ulong)]

    return State(_POWER_THROTTLING_VERSION, control, state)


def _windows_unthrottled():
    """Power throttling off for the process (ControlMask set, StateMask clear: "never throttle"), and the
    system kept from sleeping while the job runs; both given back after it."""
    import ctypes

    kernel32 = ctypes.windll.kernel32
    process = kernel32.GetCurrentProcess()
    state = _throttling_state(_POWER_THROTTLING_EXECUTION_SPEED, 0)  # decided here: never throttled
    kernel32.SetProcessInformation(process, _PROCESS_POWER_THROTTLING, ctypes.byref(state), ctypes.sizeof(state))
    kernel32.SetThreadExecutionState(_ES_CONTINUOUS | _ES_SYSTEM_REQUIRED)

    def end() -> None:
        kernel32.SetThreadExecutionState(_ES_CONTINUOUS)
        back = _throttling_state(0, 0)  # the system's own policy again
        kernel32.SetProcessInformation(process, _PROCESS_POWER_THROTTLING, ctypes.byref(back), ctypes.sizeof(back))

    return end


def _macos_unthrottled(reason: str):
    """[[NSProcessInfo processInfo] beginActivityWithOptions:reason:], kept until endActivity: (the
    Objective-C runtime through ctypes, each call with its exact prototype, as arm64 requires)."""
    import ctypes

    objc = ctypes.cdll.LoadLibrary("/usr/lib/libobjc.A.dylib")
    ctypes.cdll.LoadLibrary("/System/Library/Frameworks/Foundation.framework/Foundation")
    objc.objc_getClass.restype = objc.sel_registerName.restype = ctypes.c_void_p
    objc.objc_getClass.argtypes = objc.sel_registerName.argtypes = [ctypes.c_char_p]
    send = objc.objc_msgSend
    pointer = ctypes.c_void_p

    def call(restype, target, selector: bytes, *args):
        send.restype, send.argtypes = restype, [pointer, pointer, *(type(arg) for arg in args)]
        return send(pointer(target), pointer(objc.sel_registerName(selector)), *args)

    info = call(pointer, objc.objc_getClass(b"NSProcessInfo"), b"processInfo")
    text = call(pointer, objc.objc_getClass(b"NSString"), b"stringWithUTF8String:", ctypes.c_char_p(reason.encode()))
    options = ctypes.c_uint64(_NS_ACTIVITY_OPTIONS)
    activity = call(pointer, info, b"beginActivityWithOptions:reason:", options, pointer(text))
    activity = call(pointer, activity, b"retain")  # the activity is autoreleased: kept until the job ends

    def end() -> None:
        call(None, info, b"endActivity:", pointer(activity))
        call(None, activity, b"release")

    return end
