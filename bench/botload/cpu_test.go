package botload

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"time"
)

// tick is the unit of the CPU times in /proc: USER_HZ, 100 on every Linux
// that Go supports.
const tick = 10 * time.Millisecond

// procCPU is the CPU time, user and system, that process pid ("self" for
// this one) has used so far. ok is false where there is no /proc.
func procCPU(pid string) (d time.Duration, ok bool) {
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, false
	}
	// The command name, in parentheses, may hold spaces; the fields after it
	// are numbered from 3, utime and stime being the 14th and 15th.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * tick, true
}

// machineCPU is the time all cores together have spent so far: busy (user,
// system and interrupts, whichever process), idle, waiting for the disk,
// and stolen by the hypervisor.
type machineCPU struct{ busy, idle, iowait, steal time.Duration }

func readMachineCPU() (machineCPU, bool) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return machineCPU{}, false
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) < 9 || f[0] != "cpu" {
		return machineCPU{}, false
	}
	var v [8]time.Duration
	for i := range v {
		n, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			return machineCPU{}, false
		}
		v[i] = time.Duration(n) * tick
	}
	// user nice system idle iowait irq softirq steal
	return machineCPU{busy: v[0] + v[1] + v[2] + v[5] + v[6], idle: v[3], iowait: v[4], steal: v[7]}, true
}

// cpuMeter measures the CPU time the bot, this process and the whole
// machine use between laps.
type cpuMeter struct {
	pid  string
	last cpuLap
}

// cpuLap is the CPU time used in one lap, or since start for the meter's
// own; ok is false where /proc cannot say.
type cpuLap struct {
	bot, self time.Duration
	machine   machineCPU
	ok        bool
}

func newCPUMeter(pid string) *cpuMeter {
	m := &cpuMeter{pid: pid}
	m.lap()
	return m
}

// lap returns the CPU time used since the last lap.
func (m *cpuMeter) lap() cpuLap {
	bot, ok1 := procCPU(m.pid)
	self, ok2 := procCPU("self")
	machine, ok3 := readMachineCPU()
	now := cpuLap{bot: bot, self: self, machine: machine, ok: ok1 && ok2 && ok3}
	l := cpuLap{
		bot: now.bot - m.last.bot, self: now.self - m.last.self,
		machine: machineCPU{
			busy: now.machine.busy - m.last.machine.busy, idle: now.machine.idle - m.last.machine.idle,
			iowait: now.machine.iowait - m.last.machine.iowait, steal: now.machine.steal - m.last.machine.steal,
		},
		ok: now.ok && m.last.ok,
	}
	m.last = now
	return l
}

// String says where a lap's CPU time went.
func (l cpuLap) String() string {
	return "hermes bot " + l.bot.String() + ", load generator " + l.self.String() +
		"; machine busy " + l.machine.busy.String() + ", idle " + l.machine.idle.String() +
		", iowait " + l.machine.iowait.String() + ", steal " + l.machine.steal.String()
}
