// SPDX-License-Identifier: GPL-2.0
/*
 * A module for the KPLUG_KCOV_UNIQUE boot test, built out of tree (M=):
 * reading /sys/kernel/debug/kplug-kcov-mod runs a small loop in the
 * module (covered code) and returns the address of kcovmod_read, so
 * that the test can map the module's PCs to its functions.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>

static struct dentry *kcovmod_file;

/* Eight rounds, two branches: a PC that a trace holds eight times a read. */
static noinline int kcovmod_work(unsigned int n)
{
	unsigned int i;
	int sum = 0;

	for (i = 0; i < n; i++) {
		if (i & 1)
			sum += i;
		else
			sum -= i;
	}
	return sum;
}

static ssize_t kcovmod_read(struct file *file, char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	char buf[64];
	int n;

	n = scnprintf(buf, sizeof(buf), "%lx %d\n",
		      (unsigned long)kcovmod_read, kcovmod_work(8));
	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

static const struct file_operations kcovmod_fops = {
	.owner	= THIS_MODULE,
	.read	= kcovmod_read,
};

static int __init kcovmod_init(void)
{
	kcovmod_file = debugfs_create_file("kplug-kcov-mod", 0444, NULL, NULL,
					   &kcovmod_fops);
	return 0;
}

static void __exit kcovmod_exit(void)
{
	debugfs_remove(kcovmod_file);
}

module_init(kcovmod_init);
module_exit(kcovmod_exit);
MODULE_DESCRIPTION("kplug: KCOV_UNIQUE test module");
MODULE_LICENSE("GPL");
