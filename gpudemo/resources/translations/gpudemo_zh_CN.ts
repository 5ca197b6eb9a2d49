<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Actions</name>
    <message>
        <source>&amp;Start training</source>
        <translation>开始训练(&amp;S)</translation>
    </message>
    <message>
        <source>Train the model on the chosen device with these settings</source>
        <translation>用这些设置在所选设备上训练模型</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>Stop the run, comparison, sweep or profile within a step</source>
        <translation>在一步之内停止训练、比较、扫描或剖析</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <source>Hold the run before its next epoch; predictions use the model as it stands</source>
        <translation>在下一轮之前暂停训练；预测使用此刻的模型</translation>
    </message>
    <message>
        <source>Step one &amp;epoch</source>
        <translation>单步一轮(&amp;E)</translation>
    </message>
    <message>
        <source>While paused: run one epoch, then hold again</source>
        <translation>暂停时：再训练一轮，然后再次暂停</translation>
    </message>
    <message>
        <source>&amp;Compare every device</source>
        <translation>比较所有设备(&amp;C)</translation>
    </message>
    <message>
        <source>Run these settings on each device in turn, timed fairly, with the CPU as the baseline</source>
        <translation>用这些设置依次在每个设备上训练，公平计时，以 CPU 为基准</translation>
    </message>
    <message>
        <source>S&amp;weep every device</source>
        <translation>扫描所有设备(&amp;W)</translation>
    </message>
    <message>
        <source>Time a step on every device as the size grows: from which size a GPU wins</source>
        <translation>随规模增大，在每个设备上为一步计时：看 GPU 从多大的规模开始胜出</translation>
    </message>
    <message>
        <source>Time &amp;moving data</source>
        <translation>测量数据搬运(&amp;M)</translation>
    </message>
    <message>
        <source>Time copies of 1 KiB to 1 GiB to the GPU and back, from pageable and from pinned memory: the fixed cost of a copy, the bandwidth, and a copy hidden behind compute</source>
        <translation>测量 1 KiB 到 1 GiB 的数据拷贝到 GPU 再拷回的时间，分别来自可分页内存和锁页内存：看每次拷贝的固定开销、带宽，以及藏在计算背后的拷贝</translation>
    </message>
    <message>
        <source>Data &amp;parallel</source>
        <translation>数据并行(&amp;P)</translation>
    </message>
    <message>
        <source>Run these settings with DistributedDataParallel on 1, 2, ... worker processes in turn: what more workers gain, and what their all-reduce costs</source>
        <translation>用 DistributedDataParallel 依次在 1、2……个工作进程上运行这些设置：看更多工作进程带来多少收益，以及它们的 all-reduce 代价多少</translation>
    </message>
    <message>
        <source>P&amp;rofile a step</source>
        <translation>剖析一步(&amp;R)</translation>
    </message>
    <message>
        <source>Run a few steps of these settings under torch.profiler on the chosen device: where a step&apos;s time goes</source>
        <translation>在所选设备上用 torch.profiler 运行这些设置的几步：看一步的时间花在哪里</translation>
    </message>
    <message>
        <source>&amp;Export losses as CSV…</source>
        <translation>导出损失为 CSV(&amp;E)…</translation>
    </message>
    <message>
        <source>Every epoch&apos;s loss of the runs shown on the loss plot, one row per epoch and run</source>
        <translation>损失图上显示的各次训练每一轮的损失，每轮每次训练一行</translation>
    </message>
    <message>
        <source>Export the &amp;plot…</source>
        <translation>导出图(&amp;P)…</translation>
    </message>
    <message>
        <source>The plot of the view shown, as a PNG picture or an SVG drawing</source>
        <translation>当前视图的图，保存为 PNG 图片或 SVG 矢量图</translation>
    </message>
    <message>
        <source>Export as a &amp;notebook…</source>
        <translation>导出为笔记本(&amp;N)…</translation>
    </message>
    <message>
        <source>The Code panel&apos;s script as a Jupyter notebook (.ipynb), in cells with their explanations: open it in Colab, Kaggle or a JupyterHub to train on a borrowed GPU</source>
        <translation>把代码面板中的脚本导出为 Jupyter 笔记本（.ipynb），分成若干单元格并附上说明：在 Colab、Kaggle 或 JupyterHub 中打开它，就能在借来的 GPU 上训练</translation>
    </message>
    <message>
        <source>Export the GPU lesson&apos;s measurements as a notebook…</source>
        <translation>把 GPU 课程的测量导出为笔记本…</translation>
    </message>
    <message>
        <source>The second lesson&apos;s measurements as a Jupyter notebook that needs only PyTorch: run it on a hosted GPU (Colab, Kaggle), then load the file it writes with Load measurements</source>
        <translation>把第二课的测量导出为只需要 PyTorch 的 Jupyter 笔记本：在托管的 GPU（Colab、Kaggle）上运行它，再用“载入测量结果”读入它写出的文件</translation>
    </message>
    <message>
        <source>Load &amp;measurements…</source>
        <translation>载入测量结果(&amp;M)…</translation>
    </message>
    <message>
        <source>The result file of the lesson&apos;s notebook, run where a GPU is: the second lesson then shows what that GPU measured, with its name and date, where this machine has none</source>
        <translation>在有 GPU 的地方运行课程笔记本得到的结果文件：本机没有 GPU 时，第二课会显示那块 GPU 测得的结果，并注明它的名称和日期</translation>
    </message>
    <message>
        <source>&amp;Save model…</source>
        <translation>保存模型(&amp;S)…</translation>
    </message>
    <message>
        <source>The chosen run&apos;s model and the settings it was trained with, in a checkpoint file</source>
        <translation>所选训练的模型及其训练设置，保存为检查点文件</translation>
    </message>
    <message>
        <source>&amp;Load model…</source>
        <translation>载入模型(&amp;L)…</translation>
    </message>
    <message>
        <source>A checkpoint saved before: its model predicts again, and its settings fill the form</source>
        <translation>载入之前保存的检查点：其模型可再次预测，其设置填入表单</translation>
    </message>
    <message>
        <source>Open &amp;data…</source>
        <translation>打开数据(&amp;D)…</translation>
    </message>
    <message>
        <source>Train on your own points: a CSV file of x,y rows (a regression) or x1,x2,label rows (a classification)</source>
        <translation>用你自己的数据点训练：每行 x,y 的 CSV 文件（回归）或每行 x1,x2,label 的 CSV 文件（分类）</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Stop what is going and close gpudemo</source>
        <translation>停止正在进行的任务并关闭 gpudemo</translation>
    </message>
    <message>
        <source>&amp;Log scale</source>
        <translation>对数坐标(&amp;L)</translation>
    </message>
    <message>
        <source>The loss on a log axis</source>
        <translation>用对数坐标轴显示损失</translation>
    </message>
    <message>
        <source>&amp;Clear runs</source>
        <translation>清除训练记录(&amp;C)</translation>
    </message>
    <message>
        <source>Remove every run from the plot and the table but the one going</source>
        <translation>从图和表中移除除正在进行的训练之外的所有训练</translation>
    </message>
    <message>
        <source>&amp;System</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <source>Light or dark, as the system is</source>
        <translation>浅色或深色，与系统一致</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>Dark text on light backgrounds</source>
        <translation>浅色背景上的深色文字</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source>Light text on dark backgrounds: easier on the eyes in a dark room</source>
        <translation>深色背景上的浅色文字：在暗室中更护眼</translation>
    </message>
    <message>
        <source>&amp;What each control does</source>
        <translation>各控件的作用(&amp;W)</translation>
    </message>
    <message>
        <source>A short guide to every control</source>
        <translation>每个控件的简短说明</translation>
    </message>
    <message>
        <source>&amp;Lesson: the tutorial, step by step</source>
        <translation>课程：一步一步学教程(&amp;L)</translation>
    </message>
    <message>
        <source>Walk through the tutorial one step at a time: the devices, the data, the model, moving to the device, training, back to the CPU, predicting, and when a GPU pays</source>
        <translation>一步一步地走完教程：设备、数据、模型、移到设备上、训练、回到 CPU、预测，以及 GPU 什么时候值得用</translation>
    </message>
    <message>
        <source>Lesson: &amp;make the GPU win</source>
        <translation>课程：让 GPU 胜出(&amp;M)</translation>
    </message>
    <message>
        <source>Guess first, then measure on this machine, then the reason: where a GPU starts to win, how busy it is, what doubling the samples costs, capturing the step, bfloat16, pinned memory, two workers</source>
        <translation>先猜，再在这台机器上测量，然后看原因：GPU 从哪里开始胜出、它有多忙、样本翻倍要多花多少、捕获这一步、bfloat16、锁页内存、两个工作进程</translation>
    </message>
    <message>
        <source>&amp;About gpudemo</source>
        <translation>关于 gpudemo(&amp;A)</translation>
    </message>
    <message>
        <source>Versions, for a bug report</source>
        <translation>版本信息，用于报告问题</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>继续(&amp;R)</translation>
    </message>
</context>
<context>
    <name>BoundaryPlot</name>
    <message>
        <source>x1</source>
        <translation>x1</translation>
    </message>
    <message>
        <source>x2</source>
        <translation>x2</translation>
    </message>
    <message>
        <source>Decision boundary plot</source>
        <translation>决策边界图</translation>
    </message>
    <message>
        <source>the points, and the class the model predicts</source>
        <translation>数据点，以及模型预测的类别</translation>
    </message>
    <message>
        <source>run #{number}: the class predicted everywhere</source>
        <translation>运行 #{number}：每一处预测的类别</translation>
    </message>
</context>
<context>
    <name>CodePanel</name>
    <message>
        <source>Code: the PyTorch behind this run</source>
        <translation>代码：这次训练背后的 PyTorch</translation>
    </message>
    <message>
        <source>moving the model and the data to the device</source>
        <translation>把模型和数据移到设备上</translation>
    </message>
    <message>
        <source>the training loop</source>
        <translation>训练循环</translation>
    </message>
    <message>
        <source>bringing the model back to the CPU</source>
        <translation>把模型取回 CPU</translation>
    </message>
    <message>
        <source>predicting on the CPU</source>
        <translation>在 CPU 上预测</translation>
    </message>
    <message>
        <source>Which script</source>
        <translation>哪个脚本</translation>
    </message>
    <message>
        <source>one device</source>
        <translation>单个设备</translation>
    </message>
    <message>
        <source>data parallel (DDP, for torchrun)</source>
        <translation>数据并行（DDP，用 torchrun 运行）</translation>
    </message>
    <message>
        <source>The script for one device, as the Start button trains; or the same training with DistributedDataParallel on several workers, to run with torchrun --nproc-per-node N, as the Data parallel tab trains</source>
        <translation>单个设备的脚本，与“开始”按钮的训练相同；或者用 DistributedDataParallel 在多个工作进程上做同样的训练，用 torchrun --nproc-per-node N 运行，与“数据并行”标签页的训练相同</translation>
    </message>
    <message>
        <source>The PyTorch script of these settings</source>
        <translation>这些设置的 PyTorch 脚本</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Save as .py…</source>
        <translation>另存为 .py…</translation>
    </message>
    <message>
        <source>No script for these settings: {reason}.</source>
        <translation>这些设置没有脚本：{reason}。</translation>
    </message>
    <message>
        <source>Paused in the training loop after epoch {epoch}</source>
        <translation>在训练循环中暂停于第 {epoch} 轮之后</translation>
    </message>
    <message>
        <source>Now: {step}</source>
        <translation>当前：{step}</translation>
    </message>
    <message>
        <source>The lines this step of the lesson explains</source>
        <translation>课程这一步讲解的代码行</translation>
    </message>
    <message>
        <source>The script updates as you change the settings.</source>
        <translation>修改设置时，脚本随之更新。</translation>
    </message>
    <message>
        <source>Copied to the clipboard.</source>
        <translation>已复制到剪贴板。</translation>
    </message>
    <message>
        <source>Save the script</source>
        <translation>保存脚本</translation>
    </message>
    <message>
        <source>Python files (*.py)</source>
        <translation>Python 文件 (*.py)</translation>
    </message>
    <message>
        <source>A notebook is made of the script for one device: choose “one device” above the script.</source>
        <translation>笔记本由单设备脚本生成：请在脚本上方选择“单个设备”。</translation>
    </message>
    <message>
        <source>Export as a notebook</source>
        <translation>导出为笔记本</translation>
    </message>
    <message>
        <source>Jupyter notebooks (*.ipynb)</source>
        <translation>Jupyter 笔记本 (*.ipynb)</translation>
    </message>
    <message>
        <source>Could not save {path}: {reason}</source>
        <translation>无法保存 {path}：{reason}</translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation>已保存 {path}</translation>
    </message>
</context>
<context>
    <name>CompareJob</name>
    <message>
        <source>Comparing {devices}: {epochs} epochs on each, after a warm-up…</source>
        <translation>正在比较 {devices}：预热之后，每个设备 {epochs} 轮…</translation>
    </message>
    <message>
        <source>Then each run&apos;s step is metered for energy where the device can be (5 s each).</source>
        <translation>随后在设备允许的地方对每次训练的步骤计量能耗（每个 5 秒）。</translation>
    </message>
    <message>
        <source>comparison</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Comparison stopped: what was measured before the stop is in the table.</source>
        <translation>比较已停止：停止前测得的结果都在表格中。</translation>
    </message>
    <message>
        <source>Compared: {device} trains {speedup}× as fast as the CPU.</source>
        <translation>比较完成：{device} 的训练速度是 CPU 的 {speedup} 倍。</translation>
    </message>
    <message>
        <source>Compared: the CPU alone was measured ({rate} epochs/s).</source>
        <translation>比较完成：只测了 CPU（{rate} 轮/秒）。</translation>
    </message>
    <message>
        <source>Failed on {devices}: see the table.</source>
        <translation>在 {devices} 上失败：见表格。</translation>
    </message>
</context>
<context>
    <name>CompareView</name>
    <message>
        <source>wall-clock seconds</source>
        <translation>实际耗时（秒）</translation>
    </message>
    <message>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>epochs/s</source>
        <translation>轮/秒</translation>
    </message>
    <message>
        <source>time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>final loss</source>
        <translation>最终损失</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Compare plot</source>
        <translation>比较图</translation>
    </message>
    <message>
        <source>The same run on each device, timed</source>
        <translation>同一次训练在每个设备上的计时</translation>
    </message>
    <message>
        <source>speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <source>J/epoch</source>
        <translation>焦耳/轮</translation>
    </message>
    <message>
        <source>above idle</source>
        <translation>高于空闲</translation>
    </message>
    <message>
        <source>How many times as fast as the CPU</source>
        <translation>是 CPU 速度的多少倍</translation>
    </message>
    <message>
        <source>Joules an epoch of the step took, metered by the device&apos;s energy counter, idle power included</source>
        <translation>该步骤每轮消耗的焦耳数，由设备的能耗计数器计量，含空闲功耗</translation>
    </message>
    <message>
        <source>The joules an epoch added above the device&apos;s idle power (metered for 1 s before)</source>
        <translation>每轮在设备空闲功耗之上多消耗的焦耳数（空闲功耗在此前计量 1 秒）</translation>
    </message>
    <message>
        <source>Precisions to compare</source>
        <translation>要比较的精度</translation>
    </message>
    <message>
        <source>in the form&apos;s precision</source>
        <translation>使用表单中的精度</translation>
    </message>
    <message>
        <source>fp32 and the form&apos;s precision, side by side</source>
        <translation>fp32 与表单中的精度并排比较</translation>
    </message>
    <message>
        <source>in fp32, tf32, bf16 and fp16, side by side</source>
        <translation>fp32、tf32、bf16 和 fp16 并排比较</translation>
    </message>
    <message>
        <source>Run the comparison in more than one precision: each device runs the same settings in each, its curves and rows side by side. A precision a device cannot do is a failed row with the reason</source>
        <translation>用不止一种精度做比较：每个设备用每种精度运行同样的设置，曲线和表格行并排显示。设备做不到的精度显示为失败的一行，并附原因</translation>
    </message>
    <message>
        <source>Compare every device</source>
        <translation>比较所有设备</translation>
    </message>
    <message>
        <source>Each run&apos;s loss against wall-clock seconds: {runs}.</source>
        <translation>每次训练的损失随实际耗时（秒）的变化：{runs}。</translation>
    </message>
    <message>
        <source>Not metered: {reason}</source>
        <translation>未计量：{reason}</translation>
    </message>
    <message>
        <source>{source}: the step {calls}× over {seconds} s, {watts} W idle</source>
        <translation>{source}：步骤重复 {calls} 次，共 {seconds} 秒，空闲 {watts} W</translation>
    </message>
    <message>
        <source>* Timed while other programs took the cores this device&apos;s threads needed: the figure is too slow. Close them and compare again.</source>
        <translation>* 计时期间其他程序占用了该设备线程所需的 CPU 核心：这个数字偏慢。请关闭它们后再比较一次。</translation>
    </message>
</context>
<context>
    <name>DevicePanel</name>
    <message>
        <source>1. Device</source>
        <translation>1. 设备</translation>
    </message>
    <message>
        <source>Where the tensors live and the arithmetic runs. A GPU runs thousands of operations at once, but each step costs it a fixed launch time: on a few samples the CPU is faster, on millions the GPU is.</source>
        <translation>张量存放和运算进行的地方。GPU 能同时执行成千上万个运算，但每一步都有固定的启动开销：样本很少时 CPU 更快，样本上百万时 GPU 更快。</translation>
    </message>
    <message>
        <source>{memory} · compute {major}.{minor} · {sms} SMs</source>
        <translation>{memory} · 计算能力 {major}.{minor} · {sms} 个 SM</translation>
    </message>
    <message>
        <source>{threads} threads · {memory}</source>
        <translation>{threads} 个线程 · {memory}</translation>
    </message>
    <message>
        <source>Memory: {total} total, {free} free</source>
        <translation>内存：共 {total}，可用 {free}</translation>
    </message>
    <message>
        <source>Compute capability {major}.{minor} · {sms} multiprocessors</source>
        <translation>计算能力 {major}.{minor} · {sms} 个多处理器</translation>
    </message>
    <message>
        <source>PCI bus {bus}</source>
        <translation>PCI 总线 {bus}</translation>
    </message>
    <message>
        <source>{threads} threads · memory: {total} total, {free} free</source>
        <translation>{threads} 个线程 · 内存：共 {total}，可用 {free}</translation>
    </message>
    <message>
        <source>Memory: {total} total</source>
        <translation>内存：共 {total}</translation>
    </message>
    <message>
        <source>{device}: {allocated} allocated, {reserved} reserved, {free} free</source>
        <translation>{device}：已分配 {allocated}，已保留 {reserved}，可用 {free}</translation>
    </message>
    <message>
        <source>{device}: this process holds {resident}; {free} free on the machine</source>
        <translation>{device}：本进程占用 {resident}；本机可用 {free}</translation>
    </message>
    <message>
        <source>{percent}% busy</source>
        <translation>忙碌 {percent}%</translation>
    </message>
    <message>
        <source>{watts} W</source>
        <translation>{watts} W</translation>
    </message>
    <message>
        <source>{mhz} MHz</source>
        <translation>{mhz} MHz</translation>
    </message>
    <message>
        <source>{celsius} °C</source>
        <translation>{celsius} °C</translation>
    </message>
    <message>
        <source>Memory now</source>
        <translation>当前内存</translation>
    </message>
    <message>
        <source>Memory after the run</source>
        <translation>训练后的内存</translation>
    </message>
</context>
<context>
    <name>Dialogs</name>
    <message>
        <source>About gpudemo</source>
        <translation>关于 gpudemo</translation>
    </message>
    <message>
        <source>&lt;b&gt;gpudemo&lt;/b&gt;: watch PyTorch train a model on a GPU, one epoch at a time.</source>
        <translation>&lt;b&gt;gpudemo&lt;/b&gt;：一轮一轮地看 PyTorch 在 GPU 上训练模型。</translation>
    </message>
    <message>
        <source>Copy for a bug report</source>
        <translation>复制，用于报告问题</translation>
    </message>
    <message>
        <source>Clear the compile cache</source>
        <translation>清除编译缓存</translation>
    </message>
    <message>
        <source>Cleared {size}: the next compiled run compiles from nothing.</source>
        <translation>已清除 {size}：下一次编译运行将从头编译。</translation>
    </message>
    <message>
        <source>torch.compile&apos;s cache: {size} in {folder} (kept across restarts: a step compiled before compiles faster the next day).</source>
        <translation>torch.compile 的缓存：{folder} 中共 {size}（重启后仍保留：之前编译过的步骤第二天编译得更快）。</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>MLP width</source>
        <translation>MLP 宽度</translation>
    </message>
    <message>
        <source>MLP depth</source>
        <translation>MLP 深度</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>轮数</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Smoothing</source>
        <translation>平滑</translation>
    </message>
    <message>
        <source>x axis</source>
        <translation>x 轴</translation>
    </message>
    <message>
        <source>Compare in precisions</source>
        <translation>按多种精度比较</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>屋顶线</translation>
    </message>
    <message>
        <source>What each control does</source>
        <translation>各控件的作用</translation>
    </message>
</context>
<context>
    <name>DigitsView</name>
    <message>
        <source>Confusion matrix: a row for each true digit, a column for each digit said</source>
        <translation>混淆矩阵：每行是一个真实数字，每列是一个预测的数字</translation>
    </message>
    <message>
        <source>Row: the true digit; column: the digit the model says. The diagonal is right; any other cell counts one kind of mistake (a 3 read as an 8, say)</source>
        <translation>行：真实数字；列：模型给出的数字。对角线是正确的；其他每个格子统计一种错误（例如把 3 认成 8）</translation>
    </message>
    <message>
        <source>Test images: what the model says (the true digit); wrong ones in red</source>
        <translation>测试图像：模型给出的数字（括号内为真实数字）；错误的标为红色</translation>
    </message>
    <message>
        <source>Confusion matrix (rows: true, columns: predicted)</source>
        <translation>混淆矩阵（行：真实，列：预测）</translation>
    </message>
    <message>
        <source>Test image {number}: the model says {said}, it is a {true}. Click to see every class&apos;s probability in Predict</source>
        <translation>测试图像 {number}：模型认为是 {said}，实际是 {true}。点击可在“预测”中查看每个类别的概率</translation>
    </message>
    <message>
        <source>Test image {number}: the model says {said}, it is a {true}</source>
        <translation>测试图像 {number}：模型说是 {said}，实际是 {true}</translation>
    </message>
    <message>
        <source>Run #{number}&apos;s model after {epochs}: {right} of {total} test images right ({share}).</source>
        <translation>第 {number} 次训练的模型在 {epochs}后：{total} 张测试图像中认对 {right} 张（{share}）。</translation>
    </message>
    <message>
        <source>said {digit}</source>
        <translation>预测 {digit}</translation>
    </message>
    <message>
        <source>true {digit}</source>
        <translation>真实 {digit}</translation>
    </message>
    <message>
        <source>Test image {number}: no model yet</source>
        <translation>测试图像 {number}：还没有模型</translation>
    </message>
    <message>
        <source>Train on the digits to see what the model makes of the test images.</source>
        <translation>在“手写数字”上训练，即可看到模型如何识别测试图像。</translation>
    </message>
    <message>
        <source>Run #{number} is training: its test images and confusion matrix show when it ends or pauses.</source>
        <translation>第 {number} 次训练正在进行：训练结束或暂停时显示测试图像和混淆矩阵。</translation>
    </message>
</context>
<context>
    <name>FileCommands</name>
    <message>
        <source>No losses to export: train a run first (or show a hidden one).</source>
        <translation>没有可导出的损失：请先训练（或显示一个隐藏的训练）。</translation>
    </message>
    <message>
        <source>Export losses</source>
        <translation>导出损失</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Exported {rows} losses of {runs} runs to {path}.</source>
        <translation>已将 {runs} 次训练的 {rows} 个损失导出到 {path}。</translation>
    </message>
    <message>
        <source>This tab has no plot to export.</source>
        <translation>此标签页没有可导出的图。</translation>
    </message>
    <message>
        <source>Export the plot</source>
        <translation>导出图</translation>
    </message>
    <message>
        <source>PNG picture (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG 图片 (*.png);;SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <source>Export the plot as a .png or an .svg file, not {name}.</source>
        <translation>请把图导出为 .png 或 .svg 文件，而不是 {name}。</translation>
    </message>
    <message>
        <source>Exported the plot to {path}.</source>
        <translation>已将图导出到 {path}。</translation>
    </message>
    <message>
        <source>No model to save: train one, or pause the run, first.</source>
        <translation>没有可保存的模型：请先训练一个，或先暂停训练。</translation>
    </message>
    <message>
        <source>Save model</source>
        <translation>保存模型</translation>
    </message>
    <message>
        <source>gpudemo checkpoints (*.pt)</source>
        <translation>gpudemo 检查点 (*.pt)</translation>
    </message>
    <message>
        <source>Saved run #{number}&apos;s model ({epochs}) to {path}.</source>
        <translation>已将第 {number} 次训练的模型（{epochs}）保存到 {path}。</translation>
    </message>
    <message>
        <source>Loaded {path} as run #{number}: {problem}, {epochs}; Predict uses it.</source>
        <translation>已载入 {path}，作为第 {number} 次训练：{problem}，{epochs}；预测将使用它。</translation>
    </message>
    <message>
        <source>Load model</source>
        <translation>载入模型</translation>
    </message>
    <message>
        <source>This plot has nothing drawn yet: nothing exported.</source>
        <translation>此图尚未绘制任何内容：未导出。</translation>
    </message>
    <message>
        <source>gpudemo checkpoints (*.pt);;All files (*)</source>
        <translation>gpudemo 检查点 (*.pt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Not loaded: {reason}.</source>
        <translation>未载入：{reason}。</translation>
    </message>
    <message>
        <source>Open data</source>
        <translation>打开数据</translation>
    </message>
    <message>
        <source>CSV files (*.csv *.txt);;All files (*)</source>
        <translation>CSV 文件 (*.csv *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Reading {path}…</source>
        <translation>正在读取 {path}…</translation>
    </message>
    <message>
        <source>Data not loaded: {reason}.</source>
        <translation>数据未载入：{reason}。</translation>
    </message>
    <message>
        <source>{classes} classes of 2-D points</source>
        <translation>{classes} 类二维点</translation>
    </message>
    <message>
        <source>a regression of y on x</source>
        <translation>y 对 x 的回归</translation>
    </message>
    <message>
        <source>Loaded {path}: {rows} rows, {kind}. Start trains on it.</source>
        <translation>已载入 {path}：{rows} 行，{kind}。点击开始即可在其上训练。</translation>
    </message>
    <message>
        <source>So few points start from the linear model, the tutorial&apos;s (depth 0).</source>
        <translation>点这么少时，从线性模型（教程的模型，深度 0）开始。</translation>
    </message>
    <message>
        <source>Could not write {path}: {reason}; what was there is as it was.</source>
        <translation>无法写入 {path}：{reason}；原有文件保持不变。</translation>
    </message>
</context>
<context>
    <name>FitPlot</name>
    <message>
        <source>x</source>
        <translation>x</translation>
    </message>
    <message>
        <source>y</source>
        <translation>y</translation>
    </message>
    <message>
        <source>Fit plot</source>
        <translation>拟合图</translation>
    </message>
    <message>
        <source>the data, and what the model predicts</source>
        <translation>数据，以及模型的预测</translation>
    </message>
    <message>
        <source>the data, and what run #{number}&apos;s model predicts</source>
        <translation>数据，以及第 {number} 次训练的模型的预测</translation>
    </message>
</context>
<context>
    <name>GuessLesson</name>
    <message>
        <source>Your guess last time: {guess}</source>
        <translation>你上次的猜测：{guess}</translation>
    </message>
    <message>
        <source>Measuring on this machine… (Stop ends it)</source>
        <translation>正在这台机器上测量……（“停止”可结束）</translation>
    </message>
    <message>
        <source>You guessed {guess}. Stopped before the measurement ended: nothing measured; press Measure again.</source>
        <translation>你猜的是 {guess}。测量在结束前被停止：没有测到任何结果；请再按一次“测量”。</translation>
    </message>
    <message>
        <source>Measure again</source>
        <translation>再测一次</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>测量</translation>
    </message>
    <message>
        <source>captured in a CUDA graph</source>
        <translation>捕获为 CUDA 图</translation>
    </message>
    <message>
        <source>the whole step under torch.compile</source>
        <translation>整个步骤交给 torch.compile</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>没有测到</translation>
    </message>
    <message>
        <source>{value} %</source>
        <translation>{value}%</translation>
    </message>
    <message>
        <source>{value}×</source>
        <translation>{value} 倍</translation>
    </message>
    <message>
        <source>Measured on {device} ({date}) by the lesson&apos;s notebook: {figure}.</source>
        <translation>由课程笔记本在 {device} 上测得（{date}）：{figure}。</translation>
    </message>
    <message>
        <source>stopped before it ended: nothing measured</source>
        <translation>在结束前停止了：没有测量结果</translation>
    </message>
    <message>
        <source>no GPU here beat the CPU at any size measured</source>
        <translation>在测量的任何规模上，这里的 GPU 都没有胜过 CPU</translation>
    </message>
    <message>
        <source>Export the lesson&apos;s measurements as a notebook</source>
        <translation>把课程的测量导出为笔记本</translation>
    </message>
    <message>
        <source>Jupyter notebooks (*.ipynb)</source>
        <translation>Jupyter 笔记本 (*.ipynb)</translation>
    </message>
    <message>
        <source>Wrote {path}: run it where a GPU is, then load its gpudemo_measurements.json with File &gt; Load measurements.</source>
        <translation>已写入 {path}：在有 GPU 的地方运行它，然后用“文件 &gt; 载入测量结果”读入它生成的 gpudemo_measurements.json。</translation>
    </message>
    <message>
        <source>Load measurements</source>
        <translation>载入测量结果</translation>
    </message>
    <message>
        <source>Measurements (*.json);;All files (*)</source>
        <translation>测量结果 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Not loaded: {path}: {reason}.</source>
        <translation>未载入：{path}：{reason}。</translation>
    </message>
    <message>
        <source>Loaded the measurements of {device} ({date}): the second lesson shows them.</source>
        <translation>已载入 {device} 的测量结果（{date}）：第二课会显示它们。</translation>
    </message>
    <message>
        <source>overhead</source>
        <translation>开销</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>on the Apple GPU (MPS) torch.profiler sees only the CPU encoding Metal&apos;s commands, not the GPU&apos;s time: how busy it was cannot be measured this way</source>
        <translation>在 Apple GPU（MPS）上，torch.profiler 只能看到 CPU 编码 Metal 命令的时间，看不到 GPU 自己的时间：用这种方法测不出它有多忙</translation>
    </message>
    <message>
        <source>Mind the figure: a step this long is far more than fixed costs, yet twice the samples took barely longer, so another program probably held the cores while one of the two was timed; the bound given is the roofline&apos;s. Close other programs and measure again.</source>
        <translation>注意这个数字：这么长的一步远不止固定开销，而样本翻倍后用时却几乎没变，所以很可能在其中一次计时时有别的程序占用了核心；这里给出的限制类型来自屋顶线。关掉其他程序后再测一次。</translation>
    </message>
    <message>
        <source>Could not write {path}: {reason}</source>
        <translation>无法写入 {path}：{reason}</translation>
    </message>
    <message>
        <source>Exported {count} guesses to {path}.</source>
        <translation>已将 {count} 个猜测导出到 {path}。</translation>
    </message>
    <message>
        <source>Export your guesses</source>
        <translation>导出你的猜测</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
</context>
<context>
    <name>GuessPanel</name>
    <message>
        <source>Lesson: make the GPU win</source>
        <translation>课程：让 GPU 胜出</translation>
    </message>
    <message>
        <source>Your guess:</source>
        <translation>你的猜测：</translation>
    </message>
    <message>
        <source>Your guess</source>
        <translation>你的猜测</translation>
    </message>
    <message>
        <source>Your guesses beside what was measured</source>
        <translation>你的猜测与测量结果对照</translation>
    </message>
    <message>
        <source>question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>测得</translation>
    </message>
    <message>
        <source>off by</source>
        <translation>偏差</translation>
    </message>
    <message>
        <source>note</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>guess</source>
        <translation>猜测</translation>
    </message>
    <message>
        <source>Export as CSV…</source>
        <translation>导出为 CSV……</translation>
    </message>
</context>
<context>
    <name>LandscapeView</name>
    <message>
        <source>weight w</source>
        <translation>权重 w</translation>
    </message>
    <message>
        <source>bias b</source>
        <translation>偏置 b</translation>
    </message>
    <message>
        <source>Loss landscape plot</source>
        <translation>损失地形图</translation>
    </message>
    <message>
        <source>Train the tutorial or the line to see its loss over every (weight, bias), and the path the optimizer takes through it.</source>
        <translation>训练“教程”或“直线”问题，即可看到每个（权重, 偏置）处的损失，以及优化器走过的路径。</translation>
    </message>
    <message>
        <source>No picture: this model has more than two parameters ({count}), and its loss is a surface over {count} dimensions, which no picture of two axes can show. Train the tutorial or the line (two parameters, weight and bias) to see the landscape and the optimizer&apos;s path through it.</source>
        <translation>无法作图：这个模型的参数多于两个（{count} 个），它的损失是 {count} 维上的曲面，两条坐标轴的图无法表示。训练“教程”或“直线”问题（两个参数：权重和偏置），即可看到损失地形和优化器走过的路径。</translation>
    </message>
    <message>
        <source>The loss of y = w·x + b at every (w, b) of the grid, darker where it is lower; the lines join equal losses, the star is the least. Each run&apos;s path is its (w, b) after every epoch.</source>
        <translation>网格上每个 (w, b) 处 y = w·x + b 的损失，越低颜色越深；等高线连接损失相等的点，星号是最小值。每次训练的路径是它每一轮之后的 (w, b)。</translation>
    </message>
    <message>
        <source>every grid point against every sample in one batched evaluation</source>
        <translation>每个网格点对每个样本，一次批量计算</translation>
    </message>
    <message>
        <source>from the data&apos;s five means (exact for a line and MSE)</source>
        <translation>由数据的五个均值算出（对直线和 MSE 是精确的）</translation>
    </message>
    <message>
        <source>{size} × {size} grid of the loss, computed on the run&apos;s device, {how}</source>
        <translation>{size} × {size} 的损失网格，在训练所用设备上计算，{how}</translation>
    </message>
</context>
<context>
    <name>LessonCommands</name>
    <message>
        <source>This step needs the lesson&apos;s run, trained in step {step}: press Train now and it runs here.</source>
        <translation>这一步需要课程第 {step} 步的训练结果：按“现在训练”，它会在这里运行。</translation>
    </message>
    <message>
        <source>Train now</source>
        <translation>现在训练</translation>
    </message>
    <message>
        <source>Predict x = 4</source>
        <translation>预测 x = 4</translation>
    </message>
    <message>
        <source>Compare at 1,000,000</source>
        <translation>在 1,000,000 个点上比较</translation>
    </message>
    <message>
        <source>Profile a step</source>
        <translation>剖析一步</translation>
    </message>
    <message>
        <source>{us} µs</source>
        <translation>{us} 微秒</translation>
    </message>
</context>
<context>
    <name>LessonPanel</name>
    <message>
        <source>Lesson: the tutorial, step by step</source>
        <translation>课程：一步一步学教程</translation>
    </message>
    <message>
        <source>◀ Back</source>
        <translation>◀ 上一步</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>下一步 ▶</translation>
    </message>
    <message>
        <source>Leave the lesson</source>
        <translation>结束课程</translation>
    </message>
    <message>
        <source>End the lesson: your own settings come back</source>
        <translation>结束课程：恢复你自己的设置</translation>
    </message>
    <message>
        <source>Step {number} of {total}</source>
        <translation>第 {number} 步，共 {total} 步</translation>
    </message>
</context>
<context>
    <name>LossView</name>
    <message>
        <source>#{number} {device} · {problem} · {optimizer} · lr {lr}</source>
        <translation>#{number} {device} · {problem} · {optimizer} · 学习率 {lr}</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>轮</translation>
    </message>
    <message>
        <source>Loss plot</source>
        <translation>损失图</translation>
    </message>
    <message>
        <source>training accuracy</source>
        <translation>训练准确率</translation>
    </message>
    <message>
        <source>loss (MSE)</source>
        <translation>损失（MSE）</translation>
    </message>
    <message>
        <source>loss (cross-entropy)</source>
        <translation>损失（交叉熵）</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>training seconds (pauses left out)</source>
        <translation>训练秒数（不含暂停）</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>gpudemo — watch PyTorch train on a GPU</source>
        <translation>gpudemo — 看 PyTorch 在 GPU 上训练</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Loss landscape</source>
        <translation>损失地形</translation>
    </message>
    <message>
        <source>Compare devices</source>
        <translation>比较设备</translation>
    </message>
    <message>
        <source>GPU vs CPU by size</source>
        <translation>GPU 与 CPU 随规模对比</translation>
    </message>
    <message>
        <source>Step profile</source>
        <translation>单步剖析</translation>
    </message>
    <message>
        <source>Data parallel</source>
        <translation>数据并行</translation>
    </message>
    <message>
        <source>Moving data</source>
        <translation>数据搬运</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Look inside</source>
        <translation>看内部</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>测量</translation>
    </message>
    <message>
        <source>The {language} translation could not be loaded.</source>
        <translation>无法载入 {language} 翻译。</translation>
    </message>
    <message>
        <source>The window is in English now.</source>
        <translation>The window is in English now.</translation>
    </message>
    <message>
        <source>The window is in Simplified Chinese now.</source>
        <translation>界面已切换为简体中文。</translation>
    </message>
    <message>
        <source>No Chinese font is installed here, so the Chinese text shows as boxes: install one (Noto Sans CJK; on Debian and Ubuntu: sudo apt install fonts-noto-cjk) and start gpudemo again.</source>
        <translation>No Chinese font is installed here, so the Chinese text shows as boxes: install one (Noto Sans CJK; on Debian and Ubuntu: sudo apt install fonts-noto-cjk) and start gpudemo again. 本机没有安装中文字体，中文会显示为方框：请安装一种（Noto Sans CJK）后重新启动 gpudemo。</translation>
    </message>
    <message>
        <source>Something went wrong: {error}. The details are in {path}; the window goes on.</source>
        <translation>出错了：{error}。详细信息在 {path} 中；窗口可以继续使用。</translation>
    </message>
    <message>
        <source>the terminal</source>
        <translation>终端</translation>
    </message>
</context>
<context>
    <name>Measurements</name>
    <message>
        <source>The {job} failed: {message}</source>
        <translation>{job}失败：{message}</translation>
    </message>
</context>
<context>
    <name>Menus</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Export a p&amp;lot</source>
        <translation>导出一张图(&amp;L)</translation>
    </message>
    <message>
        <source>Loss plot…</source>
        <translation>损失图…</translation>
    </message>
    <message>
        <source>Fit plot…</source>
        <translation>拟合图…</translation>
    </message>
    <message>
        <source>Loss landscape…</source>
        <translation>损失地形…</translation>
    </message>
    <message>
        <source>Compare plot…</source>
        <translation>比较图…</translation>
    </message>
    <message>
        <source>GPU vs CPU plot…</source>
        <translation>GPU 与 CPU 对比图…</translation>
    </message>
    <message>
        <source>Roofline…</source>
        <translation>屋顶线图…</translation>
    </message>
    <message>
        <source>Data parallel plot…</source>
        <translation>数据并行图…</translation>
    </message>
    <message>
        <source>Moving data plot…</source>
        <translation>数据搬运图…</translation>
    </message>
    <message>
        <source>Step timeline…</source>
        <translation>单步时间线…</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Code panel</source>
        <translation>代码面板(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation>课程(&amp;L)</translation>
    </message>
</context>
<context>
    <name>Names</name>
    <message>
        <source>tutorial</source>
        <translation>教程</translation>
    </message>
    <message>
        <source>line</source>
        <translation>直线</translation>
    </message>
    <message>
        <source>sine</source>
        <translation>正弦</translation>
    </message>
    <message>
        <source>circles</source>
        <translation>同心圆</translation>
    </message>
    <message>
        <source>xor</source>
        <translation>异或</translation>
    </message>
    <message>
        <source>spiral</source>
        <translation>螺旋</translation>
    </message>
    <message>
        <source>digits</source>
        <translation>手写数字</translation>
    </message>
    <message>
        <source>sgd</source>
        <translation>SGD</translation>
    </message>
    <message>
        <source>momentum</source>
        <translation>动量 SGD</translation>
    </message>
    <message>
        <source>adam</source>
        <translation>Adam</translation>
    </message>
</context>
<context>
    <name>ParallelJob</name>
    <message>
        <source>Data parallel: {problem} on 1 to {most} workers ({backend}), in turn…</source>
        <translation>数据并行：依次在 1 到 {most} 个工作进程（{backend}）上训练 {problem}…</translation>
    </message>
    <message>
        <source>data-parallel run</source>
        <translation>数据并行训练</translation>
    </message>
    <message>
        <source>Data parallel: {workers} workers, {rate} epochs/s…</source>
        <translation>数据并行：{workers} 个工作进程，{rate} 轮/秒…</translation>
    </message>
    <message>
        <source>Data parallel done: {note}</source>
        <translation>数据并行完成：{note}</translation>
    </message>
    <message>
        <source>Data parallel stopped: {note}</source>
        <translation>数据并行已停止：{note}</translation>
    </message>
</context>
<context>
    <name>ParallelView</name>
    <message>
        <source>Data parallel plot</source>
        <translation>数据并行图</translation>
    </message>
    <message>
        <source>workers</source>
        <translation>工作进程数</translation>
    </message>
    <message>
        <source>epochs per second</source>
        <translation>每秒轮数</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>ideal: one worker&apos;s rate × workers</source>
        <translation>理想：单个工作进程的速度 × 工作进程数</translation>
    </message>
    <message>
        <source>The run on each number of workers</source>
        <translation>在每种工作进程数下的训练</translation>
    </message>
    <message>
        <source>epochs/s</source>
        <translation>轮/秒</translation>
    </message>
    <message>
        <source>speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <source>all-reduce</source>
        <translation>all-reduce</translation>
    </message>
    <message>
        <source>final loss</source>
        <translation>最终损失</translation>
    </message>
    <message>
        <source>The share of a forward and backward spent all-reducing the gradients (and waiting for the slowest worker): the same steps timed with DDP&apos;s all-reduce and without it</source>
        <translation>一次前向和反向中用于对梯度做 all-reduce（以及等待最慢工作进程）的时间占比：同样的步骤分别在有和没有 DDP all-reduce 时计时</translation>
    </message>
    <message>
        <source>Run the form&apos;s settings with DistributedDataParallel on 1, 2, ... workers in turn: each a process with its shard of the data, the gradients all-reduced at every step. On 3 samples more workers are slower (the all-reduce costs more than the step); on 1,000,000 they are faster</source>
        <translation>用 DistributedDataParallel 依次在 1、2……个工作进程上运行表单的设置：每个进程处理自己那一份数据，每一步都对梯度做 all-reduce。3 个样本时工作进程越多越慢（all-reduce 比这一步本身更费时）；1,000,000 个样本时则更快</translation>
    </message>
    <message>
        <source>One run split over several workers: each trains on its shard of the data and DDP averages the gradients at every step, so all take the same step. Press the button to run the form&apos;s settings on 1, 2, ... workers.</source>
        <translation>把一次训练分给多个工作进程：每个进程在自己那一份数据上训练，DDP 在每一步对梯度求平均，因此所有进程走同样的一步。按下按钮，在 1、2……个工作进程上运行表单的设置。</translation>
    </message>
    <message>
        <source>GPUs, one each (nccl)</source>
        <translation>GPU，每个进程一块（nccl）</translation>
    </message>
    <message>
        <source>CPU processes (gloo)</source>
        <translation>CPU 进程（gloo）</translation>
    </message>
    <message>
        <source>Running on 1 to {most} workers: {where}…</source>
        <translation>正在 1 到 {most} 个工作进程上运行：{where}…</translation>
    </message>
    <message>
        <source>Stopped before two worker counts were measured.</source>
        <translation>在测完两种工作进程数之前已停止。</translation>
    </message>
    <message>
        <source>More workers were slower: each step&apos;s all-reduce ({share} of a step with {workers} workers) costs more than splitting the step saves. Try more samples.</source>
        <translation>工作进程越多反而越慢：每一步的 all-reduce（{workers} 个工作进程时占一步的 {share}）比拆分这一步省下的时间还多。试试更多样本。</translation>
    </message>
    <message>
        <source>{workers} workers train {speedup}× as fast as one: the step is large beside its all-reduce ({share} of a step).</source>
        <translation>{workers} 个工作进程的训练速度是一个的 {speedup} 倍：这一步相对于它的 all-reduce 足够大（all-reduce 占一步的 {share}）。</translation>
    </message>
    <message>
        <source>Stopped. </source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>Note: {why}.</source>
        <translation>注意：{why}。</translation>
    </message>
</context>
<context>
    <name>PlotStyle</name>
    <message>
        <source>Empty: nothing drawn yet.</source>
        <translation>空白：还没有画任何内容。</translation>
    </message>
</context>
<context>
    <name>PlotWords</name>
    <message>
        <source>not a number</source>
        <translation>不是数字</translation>
    </message>
    <message>
        <source>falling</source>
        <translation>正在下降</translation>
    </message>
    <message>
        <source>rising</source>
        <translation>正在上升</translation>
    </message>
    <message>
        <source>flat</source>
        <translation>持平</translation>
    </message>
    <message>
        <source>No run yet: press Start training to see the loss fall.</source>
        <translation>还没有训练：按“开始训练”看损失下降。</translation>
    </message>
    <message>
        <source>Run {number} on {device}: no epoch yet.</source>
        <translation>在 {device} 上的第 {number} 次训练：还没有完成任何一轮。</translation>
    </message>
    <message>
        <source>Run {number} on {device}: loss {loss} at epoch {epoch} of {epochs}</source>
        <translation>在 {device} 上的第 {number} 次训练：第 {epoch} 轮（共 {epochs} 轮）损失为 {loss}</translation>
    </message>
    <message>
        <source>The data the model learns from, and, once a run has gone, its curve.</source>
        <translation>模型学习的数据；训练之后还有模型的曲线。</translation>
    </message>
    <message>
        <source>The data, and the curve of run {number}&apos;s model after {epochs} epochs drawn through it.</source>
        <translation>数据，以及第 {number} 次训练的模型在 {epochs} 轮之后画出的曲线。</translation>
    </message>
    <message>
        <source>The points of each class; once a run has gone, its boundary.</source>
        <translation>每一类的数据点；训练之后还有决策边界。</translation>
    </message>
    <message>
        <source>The points of each class over the regions run {number}&apos;s model gives each class</source>
        <translation>每一类的数据点，叠在第 {number} 次训练的模型划给各类的区域上</translation>
    </message>
    <message>
        <source>{share} of the training points right</source>
        <translation>训练点分对了 {share}</translation>
    </message>
</context>
<context>
    <name>PredictionPanel</name>
    <message>
        <source>3. Predict on the CPU</source>
        <translation>3. 在 CPU 上预测</translation>
    </message>
    <message>
        <source>Values to predict for</source>
        <translation>要预测的值</translation>
    </message>
    <message>
        <source>values, e.g. 4, 5.5, -1</source>
        <translation>数值，例如 4, 5.5, -1</translation>
    </message>
    <message>
        <source>Predict</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Train a model first, then ask it for new x.</source>
        <translation>先训练一个模型，再让它预测新的 x。</translation>
    </message>
    <message>
        <source>Predictions</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>x</source>
        <translation>x</translation>
    </message>
    <message>
        <source>predicted y</source>
        <translation>预测的 y</translation>
    </message>
    <message>
        <source>points x1,x2, e.g. 0.5,0.5; -1,1</source>
        <translation>点 x1,x2，例如 0.5,0.5; -1,1</translation>
    </message>
    <message>
        <source>test images 1 to {count}, e.g. 1, 2, 3 (or click one)</source>
        <translation>测试图像编号 1 到 {count}，例如 1, 2, 3（或点击一张）</translation>
    </message>
    <message>
        <source>x1, x2</source>
        <translation>x1, x2</translation>
    </message>
    <message>
        <source>class</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>image
no.</source>
        <translation>图像
编号</translation>
    </message>
    <message>
        <source>predicted
digit</source>
        <translation>预测的
数字</translation>
    </message>
    <message>
        <source>true
digit</source>
        <translation>真实的
数字</translation>
    </message>
    <message>
        <source>No model yet: train one first, then predict.</source>
        <translation>还没有模型：请先训练一个，再预测。</translation>
    </message>
    <message>
        <source>Run #{number} has no model to ask yet: pause it, or wait for it to end.</source>
        <translation>第 {number} 次训练还没有可用的模型：请暂停它，或等它结束。</translation>
    </message>
    <message>
        <source>Computed on the CPU by run #{number}&apos;s model, trained on {device} ({epochs}).</source>
        <translation>由第 {number} 次训练的模型在 CPU 上计算，该模型在 {device} 上训练（{epochs}）。</translation>
    </message>
</context>
<context>
    <name>Preferences</name>
    <message>
        <source>The saved settings could not be read ({path}): the defaults are used.</source>
        <translation>无法读取保存的设置（{path}）：使用默认值。</translation>
    </message>
    <message>
        <source>The saved settings are of another gpudemo version: the defaults are used.</source>
        <translation>保存的设置来自另一个版本的 gpudemo：使用默认值。</translation>
    </message>
    <message>
        <source>Some saved settings were not valid and kept their defaults: {names}.</source>
        <translation>有些保存的设置无效，保留了默认值：{names}。</translation>
    </message>
</context>
<context>
    <name>ProfileJob</name>
    <message>
        <source>Profiling a step of {problem} on {device} under torch.profiler…</source>
        <translation>正在用 torch.profiler 剖析 {problem} 在 {device} 上的一步…</translation>
    </message>
    <message>
        <source>profile</source>
        <translation>剖析</translation>
    </message>
    <message>
        <source>Profiled: {us} µs a step on {device}; see the Step profile tab.</source>
        <translation>剖析完成：在 {device} 上每步 {us} µs；见“单步剖析”标签页。</translation>
    </message>
</context>
<context>
    <name>ProfileView</name>
    <message>
        <source>operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>calls / step</source>
        <translation>每步调用次数</translation>
    </message>
    <message>
        <source>CPU µs / step</source>
        <translation>每步 CPU µs</translation>
    </message>
    <message>
        <source>device µs / step</source>
        <translation>每步设备 µs</translation>
    </message>
    <message>
        <source>Press Profile a step to run a few steps of these settings under torch.profiler on the chosen device and see where a step&apos;s time goes: on the CPU side issuing work, or on the device computing it.</source>
        <translation>按“剖析一步”，在所选设备上用 torch.profiler 运行这些设置的几步，看一步的时间花在哪里：是 CPU 一侧在下发工作，还是设备在计算。</translation>
    </message>
    <message>
        <source>Where a step&apos;s time goes, operator by operator</source>
        <translation>一步的时间花在哪里，逐个算子列出</translation>
    </message>
</context>
<context>
    <name>RunCommands</name>
    <message>
        <source>Start pressed: the run begins as soon as PyTorch has loaded (Stop cancels it)…</source>
        <translation>已按下开始：PyTorch 加载完成后立即开始训练（按停止可取消）…</translation>
    </message>
    <message>
        <source>%v / %m epochs</source>
        <translation>%v / %m 轮</translation>
    </message>
    <message>
        <source>%p%</source>
        <translation>%p%</translation>
    </message>
    <message>
        <source>%v / %m measurements</source>
        <translation>%v / %m 次测量</translation>
    </message>
    <message>
        <source>%v of %m worker counts</source>
        <translation>%v / %m 种工作进程数</translation>
    </message>
    <message>
        <source>%v copies timed</source>
        <translation>已测 %v 次拷贝</translation>
    </message>
    <message>
        <source>The run waiting for PyTorch was cancelled.</source>
        <translation>等待 PyTorch 的训练已取消。</translation>
    </message>
</context>
<context>
    <name>RunStatus</name>
    <message>
        <source>Ready: pick a device and press Start training.</source>
        <translation>就绪：选择一个设备，然后按“开始训练”。</translation>
    </message>
    <message>
        <source>%v / %m epochs</source>
        <translation>%v / %m 轮</translation>
    </message>
    <message>
        <source>{rate} epochs/s · ETA {eta}</source>
        <translation>{rate} 轮/秒 · 剩余 {eta}</translation>
    </message>
    <message>
        <source>Loading PyTorch (a second or two): press Start training now and the run begins once it has.</source>
        <translation>正在加载 PyTorch（一两秒）：现在就可以按“开始训练”，加载完成后训练随即开始。</translation>
    </message>
    <message>
        <source>Preparing the run on {device}…</source>
        <translation>正在 {device} 上准备训练…</translation>
    </message>
    <message>
        <source>Preparing the run on {device}: PyTorch loads its training code on the first run (a second or two)…</source>
        <translation>正在 {device} 上准备训练：第一次训练时 PyTorch 要载入它的训练代码（一两秒）…</translation>
    </message>
    <message>
        <source>Training on {device}…</source>
        <translation>正在 {device} 上训练…</translation>
    </message>
    <message>
        <source>Stopping after {what}…</source>
        <translation>等{what}结束后停止……</translation>
    </message>
    <message>
        <source>Stopped before the first epoch: no run to keep.</source>
        <translation>在第一个轮次之前就停止了：没有可保留的运行。</translation>
    </message>
    <message>
        <source>Pausing before the next epoch…</source>
        <translation>将在下一轮之前暂停…</translation>
    </message>
    <message>
        <source>Paused at epoch {epoch} of {total}: Step runs one more epoch, Resume goes on, Predict uses the model as it stands.</source>
        <translation>已暂停于第 {epoch} 轮（共 {total} 轮）：“单步”再训练一轮，“继续”接着训练，“预测”使用此刻的模型。</translation>
    </message>
    <message>
        <source>Metering the step&apos;s energy on {device}: 1 s of idle, then the step again for 4 s under the counter (Stop ends it)…</source>
        <translation>正在计量 {device} 上该步骤的能耗：先空闲 1 秒，再在计数器下重复该步骤 4 秒（按停止可结束）…</translation>
    </message>
    <message>
        <source>energy not metered: {reason}</source>
        <translation>未计量能耗：{reason}</translation>
    </message>
    <message>
        <source>{joules} J/epoch, {above} of it above the idle {watts} W ({source}: the step {calls}× over {seconds} s)</source>
        <translation>{joules} 焦耳/轮，其中 {above} 高于空闲功耗 {watts} W（{source}：步骤重复 {calls} 次，共 {seconds} 秒）</translation>
    </message>
    <message>
        <source>{epochs} on {device} in {seconds} ({rate} epochs/s)</source>
        <translation>在 {device} 上 {epochs}，用时 {seconds}（{rate} 轮/秒）</translation>
    </message>
    <message>
        <source>Completed: {summary}</source>
        <translation>已完成：{summary}</translation>
    </message>
    <message>
        <source>Stopped at epoch {epoch} of {total}: {summary}</source>
        <translation>已停止于第 {epoch} 轮（共 {total} 轮）：{summary}</translation>
    </message>
    <message>
        <source>Diverged at epoch {epoch}: the loss became {loss}. Try a smaller learning rate than {lr}.</source>
        <translation>第 {epoch} 轮发散：损失变成了 {loss}。请试一个比 {lr} 更小的学习率。</translation>
    </message>
    <message>
        <source>({prepared}, not counted)</source>
        <translation>（{prepared}，不计入）</translation>
    </message>
    <message>
        <source>(other programs held the cores: this rate is too low)</source>
        <translation>（机器繁忙：数字偏慢）</translation>
    </message>
    <message>
        <source>{rate} epochs/s</source>
        <translation>{rate} 轮/秒</translation>
    </message>
    <message>
        <source>Not in this figure: moving the model and the data to {device} took {moving}, and a warm-up step before the clock {warm} (a GPU&apos;s first step pays once for its context, libraries and kernels).</source>
        <translation>这个数字不包括：把模型和数据移动到 {device} 用了 {moving}，计时前的一次预热步骤用了 {warm}（GPU 的第一步要为它的上下文、库和内核付出一次性的代价）。</translation>
    </message>
    <message>
        <source>Other programs took the cores this run&apos;s threads needed, so the rate is too slow (torch&apos;s threads wait for each other at every operator): close them and train again.</source>
        <translation>其他程序占用了这次运行的线程所需的核心，所以速度偏慢（torch 的线程在每个算子处互相等待）：关闭它们后再训练一次。</translation>
    </message>
    <message>
        <source>learned  y = {weight} · x − {bias}</source>
        <translation>学到  y = {weight} · x − {bias}</translation>
    </message>
    <message>
        <source>learned  y = {weight} · x + {bias}</source>
        <translation>学到  y = {weight} · x + {bias}</translation>
    </message>
    <message>
        <source>learned  an MLP of {count} parameters</source>
        <translation>学到  一个有 {count} 个参数的 MLP</translation>
    </message>
    <message>
        <source>final loss {loss}   ·   {learned}</source>
        <translation>最终损失 {loss}   ·   {learned}</translation>
    </message>
    <message>
        <source>Training failed: {message}</source>
        <translation>训练失败：{message}</translation>
    </message>
</context>
<context>
    <name>RunsTable</name>
    <message>
        <source>Runs: one row per run kept, its box shows it on the loss plot</source>
        <translation>训练记录：每次保留的训练一行，勾选框决定是否在损失图上显示</translation>
    </message>
    <message>
        <source>run</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>lr</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>epochs run</source>
        <translation>已训练轮数</translation>
    </message>
    <message>
        <source>status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>final loss</source>
        <translation>最终损失</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>epochs/s</source>
        <translation>轮/秒</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>samples per optimizer step (full: all of them)</source>
        <translation>每次优化器更新用的样本数（全部：全部样本）</translation>
    </message>
    <message>
        <source>a classification&apos;s share of training samples right (the final model&apos;s once it ended); for the digits also of the 360 test images</source>
        <translation>分类问题中训练样本被分对的比例（训练结束后为最终模型的）；手写数字还给出 360 张测试图像上的比例</translation>
    </message>
    <message>
        <source>seconds trained, pauses left out</source>
        <translation>训练秒数，不含暂停</translation>
    </message>
    <message>
        <source>Tick to show this run on the loss plot, clear to hide it</source>
        <translation>勾选以在损失图上显示此次训练，取消勾选则隐藏</translation>
    </message>
    <message>
        <source>full</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>{train} · test {test}</source>
        <translation>{train} · 测试 {test}</translation>
    </message>
</context>
<context>
    <name>Status</name>
    <message>
        <source>preparing</source>
        <translation>准备中</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练中</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>diverged</source>
        <translation>已发散</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>不支持</translation>
    </message>
    <message>
        <source>loaded</source>
        <translation>已载入</translation>
    </message>
</context>
<context>
    <name>SweepJob</name>
    <message>
        <source>Sweeping {kind} in {dtype} on {devices}…</source>
        <translation>正在 {devices} 上以 {dtype} 扫描 {kind}…</translation>
    </message>
    <message>
        <source>Each size&apos;s energy is metered too where a device can be (5 s a size).</source>
        <translation>在设备允许的地方，也计量每个规模的能耗（每个规模 5 秒）。</translation>
    </message>
    <message>
        <source>sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Sweeping: {device} at {size} took {us} µs a step…</source>
        <translation>扫描中：{device} 在规模 {size} 时每步 {us} µs…</translation>
    </message>
    <message>
        <source>Sweep done: {summary}</source>
        <translation>扫描完成：{summary}</translation>
    </message>
    <message>
        <source>Sweep stopped: the sizes measured before the stop are in the tab.</source>
        <translation>扫描已停止：停止前测得的规模都在该标签页中。</translation>
    </message>
</context>
<context>
    <name>SweepView</name>
    <message>
        <source>What to sweep</source>
        <translation>扫描什么</translation>
    </message>
    <message>
        <source>a training step of the form&apos;s problem, 10 to 10,000,000 samples</source>
        <translation>表单中问题的一个训练步，10 到 10,000,000 个样本</translation>
    </message>
    <message>
        <source>an n × n matrix product, n from 16</source>
        <translation>一次 n × n 矩阵乘法，n 从 16 起</translation>
    </message>
    <message>
        <source>Precision of the sweep</source>
        <translation>扫描所用的精度</translation>
    </message>
    <message>
        <source>float32 (TF32 off)</source>
        <translation>float32（关闭 TF32）</translation>
    </message>
    <message>
        <source>TF32</source>
        <translation>TF32</translation>
    </message>
    <message>
        <source>bfloat16</source>
        <translation>bfloat16</translation>
    </message>
    <message>
        <source>float32: full float32 arithmetic (PyTorch&apos;s default; a GPU&apos;s tensor cores are not used). TF32: float32 data, but a GPU&apos;s matrix products round to 10-bit mantissas on its tensor cores, several times faster. bfloat16: numbers of 16 bits, the tensor cores&apos; fastest. On the CPU, TF32 is float32.</source>
        <translation>float32：完整的 float32 运算（PyTorch 的默认设置；不使用 GPU 的张量核心）。TF32：数据仍是 float32，但 GPU 的矩阵乘法在张量核心上把尾数舍入到 10 位，快好几倍。bfloat16：16 位的数，张量核心上最快。在 CPU 上，TF32 就是 float32。</translation>
    </message>
    <message>
        <source>Time one step at growing sizes on every device; the CPU is the baseline</source>
        <translation>在每个设备上按递增的规模为一步计时；以 CPU 为基准</translation>
    </message>
    <message>
        <source>size</source>
        <translation>规模</translation>
    </message>
    <message>
        <source>throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>GPU vs CPU plot</source>
        <translation>GPU 与 CPU 对比图</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>屋顶线</translation>
    </message>
    <message>
        <source>Also count each size&apos;s arithmetic and memory traffic, and draw them against the device&apos;s limits: its peak FLOP/s and its memory&apos;s bandwidth (a known GPU&apos;s published figures, else measured here).</source>
        <translation>同时统计每个规模的运算量和内存流量，并与设备的极限对照：峰值 FLOP/s 和内存带宽（已知 GPU 用其公布的数字，否则在本机测量）。</translation>
    </message>
    <message>
        <source>FLOP per byte moved</source>
        <translation>每搬运一字节的浮点运算数</translation>
    </message>
    <message>
        <source>GFLOP/s achieved</source>
        <translation>实际达到的 GFLOP/s</translation>
    </message>
    <message>
        <source>Roofline plot</source>
        <translation>屋顶线图</translation>
    </message>
    <message>
        <source>J/epoch</source>
        <translation>焦耳/轮</translation>
    </message>
    <message>
        <source>A step sweep: also meter each size&apos;s joules per epoch with the device&apos;s energy counter (NVML on an NVIDIA GPU, RAPL on the CPU; 5 s more a size), drawn beside the speed, and find where the GPU uses less energy per epoch than the CPU. Where a device has no counter, the reason is said</source>
        <translation>训练步骤扫描：同时用设备的能耗计数器计量每个规模的每轮焦耳数（NVIDIA GPU 用 NVML，CPU 用 RAPL；每个规模多 5 秒），画在速度旁边，并找出 GPU 每轮能耗从哪里开始低于 CPU。设备没有计数器时，会说明原因</translation>
    </message>
    <message>
        <source>samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>joules per epoch</source>
        <translation>每轮焦耳数</translation>
    </message>
    <message>
        <source>Energy per epoch plot</source>
        <translation>每轮能耗图</translation>
    </message>
    <message>
        <source>n (an n × n product)</source>
        <translation>n（n × n 矩阵乘法）</translation>
    </message>
    <message>
        <source>samples per second</source>
        <translation>每秒样本数</translation>
    </message>
    <message>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <source>{device} wins from {size}</source>
        <translation>{device} 从 {size} 起胜出</translation>
    </message>
    <message>
        <source>{device} uses less from {size}</source>
        <translation>{device} 从 {size} 起更省能</translation>
    </message>
</context>
<context>
    <name>TimelinePlot</name>
    <message>
        <source>µs from the step&apos;s start</source>
        <translation>距一步开始的微秒数</translation>
    </message>
    <message>
        <source>Step timeline plot</source>
        <translation>单步时间线图</translation>
    </message>
    <message>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Hover over a bar to name it.</source>
        <translation>把鼠标悬停在条块上可显示其名称。</translation>
    </message>
    <message>
        <source>{name}: {duration} µs, from {start} µs</source>
        <translation>{name}：{duration} µs，从 {start} µs 开始</translation>
    </message>
    <message>
        <source>(launched by {operator})</source>
        <translation>（由 {operator} 启动）</translation>
    </message>
</context>
<context>
    <name>TorchLoading</name>
    <message>
        <source>PyTorch is loading: the GPUs are listed when it has…</source>
        <translation>PyTorch 正在加载：加载完成后将列出 GPU…</translation>
    </message>
    <message>
        <source># The script appears here once PyTorch has loaded…</source>
        <translation># PyTorch 加载完成后，脚本将显示在这里…</translation>
    </message>
    <message>
        <source>No GPU listed: the GPU driver has not answered for {seconds} s (torch.cuda.is_available() hangs: a broken driver?). The CPU trains meanwhile; the GPUs appear here if the driver answers.</source>
        <translation>未列出 GPU：GPU 驱动已 {seconds} 秒没有应答（torch.cuda.is_available() 卡住了：驱动损坏？）。在此期间由 CPU 训练；驱动一旦应答，GPU 就会出现在这里。</translation>
    </message>
    <message>
        <source>No GPU listed: finding the devices failed ({error}). The CPU trains.</source>
        <translation>未列出 GPU：查找设备失败（{error}）。由 CPU 训练。</translation>
    </message>
    <message>
        <source>PyTorch could not be loaded ({error}): Windows could not start its libraries, which need a newer Microsoft Visual C++ runtime than the one loaded. Install the current Microsoft Visual C++ Redistributable (x64) and start gpudemo again; reinstalling PyTorch does not help.</source>
        <translation>无法加载 PyTorch（{error}）：Windows 无法启动它的库，这些库需要比已加载的更新的 Microsoft Visual C++ 运行库。请安装最新的 Microsoft Visual C++ Redistributable (x64)，然后重新启动 gpudemo；重装 PyTorch 没有用。</translation>
    </message>
    <message>
        <source>PyTorch could not be loaded ({error}): nothing can train. Reinstall it (pip install torch) and start gpudemo again.</source>
        <translation>无法加载 PyTorch（{error}）：无法训练。请重新安装（pip install torch），然后重新启动 gpudemo。</translation>
    </message>
</context>
<context>
    <name>TrainingPanel</name>
    <message>
        <source>2. Train</source>
        <translation>2. 训练</translation>
    </message>
    <message>
        <source>Hidden layers of the MLP, 0 to 8: each layer feeds the next, so the network can compose simple bends into complex shapes; 0 is a linear model (no hidden layer), which can only draw a straight line</source>
        <translation>MLP 的隐藏层数，0 到 8：每层的输出送入下一层，网络因而能把简单的弯折组合成复杂的形状；0 是线性模型（没有隐藏层），只能画出直线</translation>
    </message>
    <message>
        <source>0 (linear)</source>
        <translation>0（线性）</translation>
    </message>
    <message>
        <source>The standard deviation of the normal noise added to each 2-D point, 0 to 1 (the points span about -1.5 to 1.5): more noise blurs the classes into each other</source>
        <translation>加到每个二维点上的正态噪声的标准差，0 到 1（点的范围约为 -1.5 到 1.5）：噪声越大，两类越混在一起</translation>
    </message>
    <message>
        <source>full batch</source>
        <translation>全批量</translation>
    </message>
    <message>
        <source>What the model learns: a straight line has two parameters (weight and bias) and a landscape you can see; the sine needs a neural network; the circles, xor, spiral and digits are classifications, whose accuracy is recorded beside the loss</source>
        <translation>模型学习什么：直线有两个参数（权重和偏置），其损失地形可以画出来；正弦需要神经网络；同心圆、异或、螺旋和手写数字是分类问题，除损失外还记录准确率</translation>
    </message>
    <message>
        <source>meter J/epoch (5 s more)</source>
        <translation>计量焦耳/轮（多 5 秒）</translation>
    </message>
    <message>
        <source>Training points, 3 to 10,000,000, drawn on the CPU from the seed, then moved to the device. A GPU wins only when there is much to compute at once: on 3 points each step is a few tiny kernels, and launching them costs more than the CPU&apos;s whole step; try 1,000,000 and compare</source>
        <translation>训练点数，3 到 10,000,000，由随机种子在 CPU 上生成，再移到设备上。只有一次要算的东西很多时 GPU 才会胜出：3 个点时每一步只是几个很小的核函数，启动它们的开销比 CPU 算完整一步还多；试试 1,000,000 再比较</translation>
    </message>
    <message>
        <source>Units in each hidden layer of the MLP, 1 to 4096: more units can bend the curve more finely, and cost more arithmetic per step</source>
        <translation>MLP 每个隐藏层的单元数，1 到 4096：单元越多，曲线能弯得越细，每步的运算也越多</translation>
    </message>
    <message>
        <source>Samples per optimizer step, shuffled each epoch; 0: the full batch. Small batches take many noisy steps per epoch; the full batch takes one exact step</source>
        <translation>每次优化器更新用的样本数，每轮打乱；0：全批量。小批量每轮走很多步，每步带噪声；全批量每轮走一步精确的</translation>
    </message>
    <message>
        <source>How the gradient becomes a step: SGD steps straight down the slope; momentum keeps part of the last step and rolls through shallow valleys; Adam scales each weight&apos;s step by its own gradient&apos;s size</source>
        <translation>梯度如何变成一步：SGD 沿坡度直接往下走；动量保留上一步的一部分，能滚过平缓的山谷；Adam 按每个权重自己梯度的大小调整它的步长</translation>
    </message>
    <message>
        <source>What a step computes in. fp32: float32 throughout. tf32: float32 data, but a GPU&apos;s matrix products round to 10-bit mantissas on its tensor cores (Ampere and newer). bf16 and fp16: mixed precision with torch.autocast, the matrix products in 16 bits, losses and weights in float32; fp16 scales the loss (GradScaler) so that small gradients do not vanish. A device that cannot do one refuses it</source>
        <translation>每一步用什么精度计算。fp32：全程 float32。tf32：数据是 float32，但 GPU 的矩阵乘法在张量核心上把尾数舍入到 10 位（Ampere 及更新的 GPU）。bf16 和 fp16：用 torch.autocast 做混合精度，矩阵乘法用 16 位，损失和权重用 float32；fp16 会缩放损失（GradScaler），以免很小的梯度变成零。设备做不到的精度会被拒绝</translation>
    </message>
    <message>
        <source>How each step is launched. eager: op by op, as the tutorial writes it; on a small problem the device waits on Python and on each kernel&apos;s launch. compiled: the whole step (forward, loss, backward, optimizer) through torch.compile, its operators fused into fewer kernels, on a GPU replayed as CUDA graphs; the first compile takes seconds and is timed apart. graph (CUDA only, full batch): the whole step captured once with torch.cuda.graph and replayed, many epochs per launch. Every mode starts from the same weights and data and trains the same losses (compiled: to float32&apos;s rounding, its fused kernels add in another order)</source>
        <translation>每一步如何启动。eager：逐个算子执行，和教程写的一样；问题很小时，设备在等待 Python 和每个内核的启动。compiled：整个步骤（前向、损失、反向、优化器）交给 torch.compile，算子融合成更少的内核，在 GPU 上以 CUDA 图重放；第一次编译需要数秒，单独计时。graph（仅 CUDA，全批量）：用 torch.cuda.graph 把整个步骤捕获一次再重放，一次启动运行多个轮次。每种模式都从相同的权重和数据出发，训练出相同的损失（compiled：相差在 float32 的舍入之内，融合后的内核以另一种顺序相加）</translation>
    </message>
    <message>
        <source>Passes over the data, 1 to 10,000,000. Each epoch computes the loss, its gradient (backward) and one step of the weights per batch</source>
        <translation>遍历数据的次数，1 到 10,000,000。每一轮对每个批次计算损失、它的梯度（反向传播），并更新一次权重</translation>
    </message>
    <message>
        <source>How far each step moves the weights against the gradient: too small and the loss falls slowly, too large and it overshoots and diverges. A number from 1e-8 to 1000; 1e-3 is written like this</source>
        <translation>每一步沿梯度反方向移动权重的距离：太小则损失下降缓慢，太大则越过最低点并发散。1e-8 到 1000 之间的数；1e-3 就这样写</translation>
    </message>
    <message>
        <source>torch.manual_seed(seed) fixes the random starting weights and data: the same seed gives the same run, a different one shows how much the start matters</source>
        <translation>torch.manual_seed(seed) 固定随机的初始权重和数据：同一个种子得到同样的训练，换一个种子可以看出起点有多重要</translation>
    </message>
    <message>
        <source>width</source>
        <translation>宽度</translation>
    </message>
    <message>
        <source>depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>noise</source>
        <translation>噪声</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>MLP width</source>
        <translation>MLP 宽度</translation>
    </message>
    <message>
        <source>MLP depth</source>
        <translation>MLP 深度</translation>
    </message>
    <message>
        <source>MLP</source>
        <translation>MLP</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>轮数</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Energy</source>
        <translation>能耗</translation>
    </message>
    <message>
        <source>Your data: {name}</source>
        <translation>你的数据：{name}</translation>
    </message>
    <message>
        <source>Not started: {reason}.</source>
        <translation>未开始：{reason}。</translation>
    </message>
    <message>
        <source>After a completed run (and for each device Compare runs), its step runs again for 4 s after 1 s of idle, under the device&apos;s energy counter (NVML on an NVIDIA GPU, RAPL on the CPU): joules per epoch, in total and above the idle power, in the status line and Compare&apos;s table. Never estimated: where a device has no counter, the reason is said instead</source>
        <translation>训练完成后（以及“比较”在每个设备上的训练之后），先空闲 1 秒，再在设备的能耗计数器下重复该步骤 4 秒（NVIDIA GPU 用 NVML，CPU 用 RAPL）：得到每轮的焦耳数，包括总量和高于空闲功耗的部分，显示在状态栏和“比较”的表格中。从不估算：设备没有计数器时，会说明原因</translation>
    </message>
    <message>
        <source>The chosen device is metered by its counter.</source>
        <translation>所选设备由其计数器计量。</translation>
    </message>
    <message>
        <source>Not on the chosen device: {reason}.</source>
        <translation>所选设备无法计量：{reason}。</translation>
    </message>
</context>
<context>
    <name>TrainingView</name>
    <message>
        <source>Smoothing, 0 to 0.99: an exponential moving average drawn over the raw loss, which stays faint behind it (as TensorBoard draws it)</source>
        <translation>平滑，0 到 0.99：在原始损失上画出指数移动平均，原始曲线淡淡地留在后面（与 TensorBoard 的画法相同）</translation>
    </message>
    <message>
        <source>The loss plot&apos;s x axis</source>
        <translation>损失图的 x 轴</translation>
    </message>
    <message>
        <source>x: epochs</source>
        <translation>x：轮数</translation>
    </message>
    <message>
        <source>x: seconds</source>
        <translation>x：秒数</translation>
    </message>
    <message>
        <source>Draw the loss against epochs, or against the seconds each run trained</source>
        <translation>按轮数，或按每次训练的秒数画损失</translation>
    </message>
    <message>
        <source>The loss plot&apos;s y axis</source>
        <translation>损失图的 y 轴</translation>
    </message>
    <message>
        <source>y: loss</source>
        <translation>y：损失</translation>
    </message>
    <message>
        <source>y: accuracy</source>
        <translation>y：准确率</translation>
    </message>
    <message>
        <source>Draw each run&apos;s loss, or the share of training samples its model classified right in each epoch (circles, xor, spiral, digits: a regression has no accuracy)</source>
        <translation>绘制每次训练的损失，或每一轮中模型分对的训练样本比例（同心圆、异或、螺旋、手写数字；回归问题没有准确率）</translation>
    </message>
    <message>
        <source>Smoothing</source>
        <translation>平滑</translation>
    </message>
    <message>
        <source>{runs} kept, {size} in memory (at most {max_runs} runs and {max_size}: the oldest finished run goes first)</source>
        <translation>保留 {runs}，占内存 {size}（最多 {max_runs} 次训练、{max_size}：最早结束的训练先被移除）</translation>
    </message>
    <message>
        <source>1 run</source>
        <translation>1 次训练</translation>
    </message>
    <message>
        <source>{count} runs</source>
        <translation>{count} 次训练</translation>
    </message>
</context>
<context>
    <name>TransferJob</name>
    <message>
        <source>Timing copies to {device} and back…</source>
        <translation>正在测量拷贝到 {device} 再拷回的时间…</translation>
    </message>
    <message>
        <source>copy timing</source>
        <translation>拷贝计时</translation>
    </message>
    <message>
        <source>Moving data: {note}</source>
        <translation>数据搬运：{note}</translation>
    </message>
</context>
<context>
    <name>TransferView</name>
    <message>
        <source>Moving data plot</source>
        <translation>数据搬运图</translation>
    </message>
    <message>
        <source>bytes per copy</source>
        <translation>每次拷贝的字节数</translation>
    </message>
    <message>
        <source>GB/s</source>
        <translation>GB/s</translation>
    </message>
    <message>
        <source>to the GPU, pinned</source>
        <translation>到 GPU，锁页内存</translation>
    </message>
    <message>
        <source>to the GPU, pageable</source>
        <translation>到 GPU，可分页内存</translation>
    </message>
    <message>
        <source>back to the host, pinned</source>
        <translation>回到主机，锁页内存</translation>
    </message>
    <message>
        <source>back to the host, pageable</source>
        <translation>回到主机，可分页内存</translation>
    </message>
    <message>
        <source>What .to(device) and .cpu() cost: every copy pays a fixed cost, then the link&apos;s bandwidth. Press the button to time copies of 1 KiB to 1 GiB to the GPU and back, from ordinary (pageable) and from pinned memory.</source>
        <translation>.to(device) 和 .cpu() 的代价：每次拷贝都要付一份固定开销，然后才是链路带宽。按下按钮，测量 1 KiB 到 1 GiB 的拷贝到 GPU 再拷回的时间，分别来自普通（可分页）内存和锁页内存。</translation>
    </message>
    <message>
        <source>Timing copies between this machine&apos;s memory and {device}…</source>
        <translation>正在测量本机内存与 {device} 之间的拷贝…</translation>
    </message>
    <message>
        <source>Nothing to move: torch sees no GPU here, so a tensor already lives where it is computed (and pin_memory() needs CUDA).</source>
        <translation>没有可搬运的：torch 在这里看不到 GPU，张量本来就在计算它的地方（而且 pin_memory() 需要 CUDA）。</translation>
    </message>
    <message>
        <source>A copy costs at least {us} µs whatever its size: a thousand copies of 1 KiB take {ms} ms, while the bandwidth levels off near {peak} GB/s for large ones.</source>
        <translation>无论大小，一次拷贝至少要 {us} µs：一千次 1 KiB 的拷贝要 {ms} ms，而大块拷贝的带宽稳定在约 {peak} GB/s。</translation>
    </message>
    <message>
        <source>With non_blocking=True from pinned memory, {hidden} of a copy hid behind compute ({serial} ms one after the other, {together} ms at once).</source>
        <translation>用 non_blocking=True 从锁页内存拷贝时，拷贝的 {hidden} 藏在了计算背后（先后进行 {serial} ms，同时进行 {together} ms）。</translation>
    </message>
    <message>
        <source>With non_blocking=True from pinned memory, {hidden} of the compute hid behind a longer copy ({serial} ms one after the other, {together} ms at once).</source>
        <translation>用 non_blocking=True 从锁页内存拷贝时，计算的 {hidden} 藏在了更长的拷贝背后（先后进行 {serial} ms，同时进行 {together} ms）。</translation>
    </message>
    <message>
        <source>Stopped. </source>
        <translation>已停止。</translation>
    </message>
</context>
<context>
    <name>Units</name>
    <message>
        <source>1 epoch</source>
        <translation>1 轮</translation>
    </message>
    <message>
        <source>{count} epochs</source>
        <translation>{count} 轮</translation>
    </message>
</context>
<context>
    <name>core</name>
    <message>
        <source>{path} is a folder, not a checkpoint</source>
        <translation>{path} 是文件夹，不是检查点文件</translation>
    </message>
    <message>
        <source>cannot read {path}: {reason}</source>
        <translation>无法读取 {path}：{reason}</translation>
    </message>
    <message>
        <source>{path} is {size} GiB: larger than any gpudemo model; not loaded</source>
        <translation>{path} 有 {size} GiB：比任何 gpudemo 模型都大；未载入</translation>
    </message>
    <message>
        <source>{path} is not a gpudemo checkpoint, or it is damaged or cut short</source>
        <translation>{path} 不是 gpudemo 检查点，或者已损坏、不完整</translation>
    </message>
    <message>
        <source>{path} holds more than weights and settings (code, or objects of other kinds); nothing in it was run, and it was not loaded</source>
        <translation>{path} 含有权重和设置以外的内容（代码或其他类型的对象）；其中的内容没有被执行，也没有载入</translation>
    </message>
    <message>
        <source>{path} asks for more memory than there is; not loaded</source>
        <translation>{path} 需要的内存超过现有内存；未载入</translation>
    </message>
    <message>
        <source>{path} is a PyTorch file but not a gpudemo checkpoint</source>
        <translation>{path} 是 PyTorch 文件，但不是 gpudemo 检查点</translation>
    </message>
    <message>
        <source>{path} is a gpudemo checkpoint of version {found}; this gpudemo reads version {version}</source>
        <translation>{path} 是版本 {found} 的 gpudemo 检查点；此 gpudemo 读取版本 {version}</translation>
    </message>
    <message>
        <source>{path} is missing its settings, weights or epochs</source>
        <translation>{path} 缺少设置、权重或轮数</translation>
    </message>
    <message>
        <source>{path} has a setting gpudemo cannot use: {reason}</source>
        <translation>{path} 中有 gpudemo 无法使用的设置：{reason}</translation>
    </message>
    <message>
        <source>{path} has settings of the wrong kind: {reason}</source>
        <translation>{path} 中的设置类型不对：{reason}</translation>
    </message>
    <message>
        <source>{path} was trained on a data file that cannot be read now: {reason}</source>
        <translation>{path} 训练所用的数据文件现在无法读取：{reason}</translation>
    </message>
    <message>
        <source>its data file {data} cannot be read now ({reason}); the model predicts as trained</source>
        <translation>其数据文件 {data} 现在无法读取（{reason}）；模型按训练时的状态进行预测</translation>
    </message>
    <message>
        <source>{path}&apos;s weights do not fit the {problem} model its settings describe: {reason}</source>
        <translation>{path} 的权重与其设置所描述的 {problem} 模型不符：{reason}</translation>
    </message>
    <message>
        <source>{path}&apos;s weights are not all finite numbers (NaN or infinity); not loaded</source>
        <translation>{path} 的权重不全是有限数（有 NaN 或无穷大）；未加载</translation>
    </message>
    <message>
        <source>{data} has changed since this model was trained on it; it predicts as trained</source>
        <translation>{data} 在训练这个模型之后已经改变；模型按训练时的样子预测</translation>
    </message>
    <message>
        <source>{path} is damaged: its part {part} is not what was written (its checksum differs)</source>
        <translation>{path} 已损坏：其中的 {part} 与写入时不同（校验和不符）</translation>
    </message>
    <message>
        <source>the device is empty; choose one of: {choices}</source>
        <translation>设备为空；请从以下选择一个：{choices}</translation>
    </message>
    <message>
        <source>device {value} is not available here; choose one of: {choices}</source>
        <translation>此处没有设备 {value}；请从以下选择一个：{choices}</translation>
    </message>
    <message>
        <source>No GPU listed: this PyTorch ({version}) is a CPU-only build, and an NVIDIA driver is here. For the CUDA build: {command}</source>
        <translation>未列出 GPU：这个 PyTorch（{version}）是只支持 CPU 的版本，而这里装有 NVIDIA 驱动。要安装 CUDA 版本：{command}</translation>
    </message>
    <message>
        <source>No GPU listed: this PyTorch ({version}) is a CPU-only build.</source>
        <translation>未列出 GPU：此 PyTorch（{version}）是仅支持 CPU 的版本。</translation>
    </message>
    <message>
        <source>No GPU listed: CUDA failed to start ({reason}).</source>
        <translation>未列出 GPU：CUDA 启动失败（{reason}）。</translation>
    </message>
    <message>
        <source>No GPU listed: {reason}.</source>
        <translation>未列出 GPU：{reason}。</translation>
    </message>
    <message>
        <source>No GPU listed: no CUDA GPU or driver was found.</source>
        <translation>未列出 GPU：没有找到 CUDA GPU 或驱动。</translation>
    </message>
    <message>
        <source>GPU cuda:{index} could not be read ({reason}).</source>
        <translation>无法读取 GPU cuda:{index}（{reason}）。</translation>
    </message>
    <message>
        <source>this run needs about {total} on {device} ({data} data, {activations} activations, {state} parameters, gradients and optimizer state), but only {free} is free there; use fewer samples, a smaller batch or a smaller model</source>
        <translation>这次训练在 {device} 上大约需要 {total}（数据 {data}，激活 {activations}，参数、梯度和优化器状态 {state}），但那里只有 {free} 可用；请减少样本、减小批大小或用更小的模型</translation>
    </message>
    <message>
        <source>1 epoch</source>
        <translation>1 轮</translation>
    </message>
    <message>
        <source>{count} epochs</source>
        <translation>{count} 轮</translation>
    </message>
    <message>
        <source>Tutorial: y = 2x from 3 points</source>
        <translation>教程：由 3 个点学 y = 2x</translation>
    </message>
    <message>
        <source>The tutorial&apos;s own problem: nn.Linear(1, 1) on x = 1, 2, 3</source>
        <translation>教程原本的问题：在 x = 1, 2, 3 上训练 nn.Linear(1, 1)</translation>
    </message>
    <message>
        <source>Line: y = 2x + noise</source>
        <translation>直线：y = 2x + 噪声</translation>
    </message>
    <message>
        <source>nn.Linear(1, 1) on N points, x uniform in [-3, 3], normal noise of 0.5</source>
        <translation>在 N 个点上训练 nn.Linear(1, 1)，x 在 [-3, 3] 中均匀分布，正态噪声 0.5</translation>
    </message>
    <message>
        <source>Sine: an MLP learns sin(x)</source>
        <translation>正弦：MLP 学习 sin(x)</translation>
    </message>
    <message>
        <source>An MLP of tanh layers on N points of sin(x) + noise of 0.1, x in [-π, π]</source>
        <translation>由 tanh 层组成的 MLP，在 N 个 sin(x) + 0.1 噪声的点上训练，x 在 [-π, π] 中</translation>
    </message>
    <message>
        <source>Circles: two classes, one inside the other</source>
        <translation>同心圆：两类，一类在另一类里面</translation>
    </message>
    <message>
        <source>Classify 2-D points: class 0 on a circle of radius 0.5, class 1 on the unit circle. No straight line separates them: set depth 0 (a linear model) to see it fail</source>
        <translation>对二维点分类：类别 0 在半径 0.5 的圆上，类别 1 在单位圆上。没有一条直线能把它们分开：把深度设为 0（线性模型）看它失败</translation>
    </message>
    <message>
        <source>XOR: two classes in opposite corners</source>
        <translation>异或：两类位于相对的象限</translation>
    </message>
    <message>
        <source>Classify 2-D points by quadrant: the same sign on both axes is class 0. The classic problem a single layer cannot solve</source>
        <translation>按象限对二维点分类：两个坐标同号为类别 0。这是单层网络解决不了的经典问题</translation>
    </message>
    <message>
        <source>Spiral: two interleaved arms</source>
        <translation>螺旋：两条交错的旋臂</translation>
    </message>
    <message>
        <source>Classify 2-D points on two spiral arms, half a turn apart: the hardest of the three; try more width and depth</source>
        <translation>对相差半圈的两条螺旋臂上的二维点分类：三者中最难的；试试更大的宽度和深度</translation>
    </message>
    <message>
        <source>Digits: 8x8 handwritten, 10 classes</source>
        <translation>手写数字：8x8 像素，10 类</translation>
    </message>
    <message>
        <source>1,797 handwritten digits of 8x8 pixels (UCI, CC BY 4.0): 1,437 to train on, 360 held out to test; the classic first GPU exercise</source>
        <translation>1,797 个 8x8 像素的手写数字（UCI，CC BY 4.0）：1,437 个用于训练，360 个留作测试；经典的第一个 GPU 练习</translation>
    </message>
    <message>
        <source>SGD</source>
        <translation>SGD</translation>
    </message>
    <message>
        <source>SGD with momentum 0.9</source>
        <translation>带动量 0.9 的 SGD</translation>
    </message>
    <message>
        <source>Adam</source>
        <translation>Adam</translation>
    </message>
    <message>
        <source>fp32: float32 throughout</source>
        <translation>fp32：全程 float32</translation>
    </message>
    <message>
        <source>tf32: matmuls on tensor cores</source>
        <translation>tf32：矩阵乘法用张量核心</translation>
    </message>
    <message>
        <source>bf16: mixed, autocast</source>
        <translation>bf16：混合精度，autocast</translation>
    </message>
    <message>
        <source>fp16: mixed, autocast + GradScaler</source>
        <translation>fp16：混合精度，autocast + GradScaler</translation>
    </message>
    <message>
        <source>epochs</source>
        <translation>轮数</translation>
    </message>
    <message>
        <source>samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>width</source>
        <translation>宽度</translation>
    </message>
    <message>
        <source>depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>max size</source>
        <translation>最大规模</translation>
    </message>
    <message>
        <source>kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>step mode</source>
        <translation>步骤模式</translation>
    </message>
    <message>
        <source>workers</source>
        <translation>工作进程数</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>noise</source>
        <translation>噪声</translation>
    </message>
    <message>
        <source>point</source>
        <translation>点</translation>
    </message>
    <message>
        <source>data file</source>
        <translation>数据文件</translation>
    </message>
    <message>
        <source>value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>guess</source>
        <translation>猜测</translation>
    </message>
    <message>
        <source>{setting} must be a whole number, not {value}</source>
        <translation>{setting}必须是整数，而不是 {value}</translation>
    </message>
    <message>
        <source>{setting} must be a whole number from {low} to {high}, not {value}</source>
        <translation>{setting}必须是 {low} 到 {high} 之间的整数，而不是 {value}</translation>
    </message>
    <message>
        <source>{setting} must be from {low} to {high}{unit}, not {value}</source>
        <translation>{setting}必须在 {low} 到 {high} 之间{unit}，而不是 {value}</translation>
    </message>
    <message>
        <source> (0: the full batch)</source>
        <translation>（0：全批量）</translation>
    </message>
    <message>
        <source>{setting} must be one of {choices}, not {value}</source>
        <translation>{setting}必须是 {choices} 之一，而不是 {value}</translation>
    </message>
    <message>
        <source>{setting} must be a number, not {value}</source>
        <translation>{setting}必须是数字，而不是 {value}</translation>
    </message>
    <message>
        <source>{setting} must be a finite number, not {value}</source>
        <translation>{setting}必须是有限的数，而不是 {value}</translation>
    </message>
    <message>
        <source>{setting} {value} is too large for the model (float32 holds up to 3.4e38)</source>
        <translation>{setting} {value} 对模型来说太大（float32 最大约为 3.4e38）</translation>
    </message>
    <message>
        <source>type at least one number to predict for, for example 4</source>
        <translation>请至少输入一个要预测的数，例如 4</translation>
    </message>
    <message>
        <source>type at least one point x1,x2 to classify, for example 0.5,0.5</source>
        <translation>请至少输入一个要分类的点 x1,x2，例如 0.5,0.5</translation>
    </message>
    <message>
        <source>each {setting} needs two numbers, x1,x2; {value} has {count} numbers</source>
        <translation>每个{setting}需要两个数 x1,x2；{value} 有 {count} 个数</translation>
    </message>
    <message>
        <source>classify at most {high} points at once, not {count}</source>
        <translation>一次最多分类 {high} 个点，而不是 {count} 个</translation>
    </message>
    <message>
        <source>{setting} must be a file&apos;s path, not {value}</source>
        <translation>{setting}必须是文件路径，而不是 {value}</translation>
    </message>
    <message>
        <source>choose a {setting} (CSV: x,y or x1,x2,label) to train on your own data</source>
        <translation>请选择一个{setting}（CSV：x,y 或 x1,x2,label）来用你自己的数据训练</translation>
    </message>
    <message>
        <source>a test image is a whole number from 1 to {high}, not {value}</source>
        <translation>测试图像编号必须是 1 到 {high} 之间的整数，而不是 {value}</translation>
    </message>
    <message>
        <source>{device} ran out of memory before it began; what the run held is freed. Use fewer samples, a smaller batch or a smaller model</source>
        <translation>{device} 在训练开始前内存不足；训练占用的内存已释放。请减少样本、减小批大小或用更小的模型</translation>
    </message>
    <message>
        <source>{device} ran out of memory after {count}; what the run held is freed. Use fewer samples, a smaller batch or a smaller model</source>
        <translation>{device} 在 {count}之后内存不足；训练占用的内存已释放。请减少样本、减小批大小或用更小的模型</translation>
    </message>
    <message>
        <source>could not prepare {device}: {reason}</source>
        <translation>无法准备 {device}：{reason}</translation>
    </message>
    <message>
        <source>training on {device} failed after {count}: {reason}</source>
        <translation>在 {device} 上训练 {count}后失败：{reason}</translation>
    </message>
    <message>
        <source>torch.compile could not compile this step on {device}: {reason}; train without compiling</source>
        <translation>torch.compile 无法在 {device} 上编译这一步：{reason}；请不编译直接训练</translation>
    </message>
    <message>
        <source>Capturing the step in CUDA graphs on {device} before the clock starts…</source>
        <translation>计时开始前，正在 {device} 上把这一步捕获为 CUDA 图……</translation>
    </message>
    <message>
        <source>the capture (a CUDA graph capture cannot be interrupted)</source>
        <translation>捕获（CUDA 图的捕获无法中断）</translation>
    </message>
    <message>
        <source>capturing the step in CUDA graphs {milliseconds} ms</source>
        <translation>把这一步捕获为 CUDA 图 {milliseconds} ms</translation>
    </message>
    <message>
        <source>the step could not be captured in a CUDA graph on {device}: {reason}; use the eager or compiled step</source>
        <translation>无法在 {device} 上把这一步捕获为 CUDA 图：{reason}；请使用 eager 或 compiled 步骤</translation>
    </message>
    <message>
        <source>unexpected error: {reason}</source>
        <translation>意外错误：{reason}</translation>
    </message>
    <message>
        <source>line {line} has {count} values, not {columns} like the first row</source>
        <translation>第 {line} 行有 {count} 个值，而不是像第一行那样的 {columns} 个</translation>
    </message>
    <message>
        <source>line {line}: {value} is too large to train on (float32 holds up to 3.4e38)</source>
        <translation>第 {line} 行：{value} 太大，无法训练（float32 最大约为 3.4e38）</translation>
    </message>
    <message>
        <source>line {line}: {value} is not a finite number (values are separated by commas)</source>
        <translation>第 {line} 行：{value} 不是有限的数（各值之间用逗号分隔）</translation>
    </message>
    <message>
        <source>the file could not be read as numbers</source>
        <translation>无法把文件读成数字</translation>
    </message>
    <message>
        <source>{path} is not a file</source>
        <translation>{path} 不是文件</translation>
    </message>
    <message>
        <source>{path} is {size} MiB: more than gpudemo reads ({limit} MiB); not loaded</source>
        <translation>{path} 有 {size} MiB：超过 gpudemo 能读取的大小（{limit} MiB）；未载入</translation>
    </message>
    <message>
        <source>{path} is UTF-16 text; save it as CSV in UTF-8</source>
        <translation>{path} 是 UTF-16 文本；请另存为 UTF-8 编码的 CSV</translation>
    </message>
    <message>
        <source>{path} is a binary file, not CSV text</source>
        <translation>{path} 是二进制文件，不是 CSV 文本</translation>
    </message>
    <message>
        <source>{path} ends its lines with CR alone (old Mac); save it with LF or CRLF</source>
        <translation>{path} 的行只以 CR 结尾（旧 Mac 格式）；请用 LF 或 CRLF 换行保存</translation>
    </message>
    <message>
        <source>{path} is not UTF-8 text (byte {offset}); save it as CSV in UTF-8</source>
        <translation>{path} 不是 UTF-8 文本（第 {offset} 字节）；请另存为 UTF-8 编码的 CSV</translation>
    </message>
    <message>
        <source>{path} is empty: write one row per sample, x,y or x1,x2,label</source>
        <translation>{path} 是空的：每个样本写一行，x,y 或 x1,x2,label</translation>
    </message>
    <message>
        <source>{path} has more than {limit} rows; gpudemo trains on at most {limit}</source>
        <translation>{path} 超过 {limit} 行；gpudemo 最多在 {limit} 行上训练</translation>
    </message>
    <message>
        <source>{path} has no rows of numbers: write one row per sample, x,y or x1,x2,label</source>
        <translation>{path} 没有数字行：每个样本写一行，x,y 或 x1,x2,label</translation>
    </message>
    <message>
        <source>{path} has {columns} values a row: write x,y (a regression) or x1,x2,label (a classification)</source>
        <translation>{path} 每行有 {columns} 个值：请写 x,y（回归）或 x1,x2,label（分类）</translation>
    </message>
    <message>
        <source>{path} has fewer than {low} rows: gpudemo trains on {low} to {high}</source>
        <translation>{path} 少于 {low} 行：gpudemo 在 {low} 到 {high} 行上训练</translation>
    </message>
    <message>
        <source>line {line}: the label {value} is not a whole number from 0 to {high}</source>
        <translation>第 {line} 行：标签 {value} 不是 0 到 {high} 之间的整数</translation>
    </message>
    <message>
        <source>{path} has one class only: a classification needs at least two labels</source>
        <translation>{path} 只有一个类别：分类至少需要两个标签</translation>
    </message>
    <message>
        <source>{samples} samples do not split evenly over {workers} workers: DistributedSampler pads them to {padded} ({per} each) by repeating {twice} of them, so the workers minimise another loss than one worker does (their final losses differ; {even} samples would split evenly)</source>
        <translation>{samples} 个样本无法平均分给 {workers} 个工作进程：DistributedSampler 通过重复其中 {twice} 个把它们补到 {padded} 个（每个 {per} 个），所以这些工作进程最小化的损失与单个工作进程不同（最终损失也不同；{even} 个样本就能平均分配）</translation>
    </message>
    <message>
        <source>nccl needs one GPU per worker: {workers} workers, {gpus} GPUs here</source>
        <translation>nccl 需要每个工作进程一块 GPU：{workers} 个工作进程，这里只有 {gpus} 块 GPU</translation>
    </message>
    <message>
        <source>data-parallel workers take eager or compiled steps: a graph step would have to capture the all-reduce between them, which gpudemo does not do</source>
        <translation>数据并行的工作进程使用 eager 或 compiled 步骤：graph 步骤需要捕获它们之间的 all-reduce，gpudemo 不这样做</translation>
    </message>
    <message>
        <source>worker {rank} of {workers} failed, and the run with it: {reason}</source>
        <translation>{workers} 个工作进程中的第 {rank} 个失败，整个训练随之结束：{reason}</translation>
    </message>
    <message>
        <source>the workers ended without a result</source>
        <translation>工作进程结束了，但没有给出结果</translation>
    </message>
    <message>
        <source>tf32 is a format of NVIDIA tensor cores (Ampere and newer); {device} computes float32: use fp32 or bf16 there</source>
        <translation>tf32 是 NVIDIA 张量核心（Ampere 及更新）的格式；{device} 计算 float32：请在那里用 fp32 或 bf16</translation>
    </message>
    <message>
        <source>tf32 needs compute capability 8.0 (Ampere) or newer; {device} has {major}.{minor}</source>
        <translation>tf32 需要计算能力 8.0（Ampere）或更新；{device} 是 {major}.{minor}</translation>
    </message>
    <message>
        <source>{device} cannot compute in bfloat16 (it needs compute capability 8.0 or newer): use fp16 or fp32</source>
        <translation>{device} 不能用 bfloat16 计算（需要计算能力 8.0 或更新）：请用 fp16 或 fp32</translation>
    </message>
    <message>
        <source>bf16 runs on a CUDA GPU or the CPU here, not on {device}</source>
        <translation>bf16 在这里可以在 CUDA GPU 或 CPU 上运行，不能在 {device} 上</translation>
    </message>
    <message>
        <source>fp16 training with a GradScaler needs a CUDA GPU; on {device} use bf16 (the same speed-up where it has one, and no scaling)</source>
        <translation>使用 GradScaler 的 fp16 训练需要 CUDA GPU；在 {device} 上请用 bf16（有加速时效果相同，而且不需要缩放）</translation>
    </message>
    <message>
        <source>fp16&apos;s GradScaler reads one value back from the device every step (did a gradient overflow?): a host sync that a small step pays for, not fp16 arithmetic</source>
        <translation>fp16 的 GradScaler 每一步都要从设备读回一个值（有梯度溢出吗？）：这是一次主机同步，小步骤为它付出代价，而不是 fp16 运算本身</translation>
    </message>
    <message>
        <source>compiled fuses operations and adds in another order: its first epochs agree with eager&apos;s to about 1e-6, but a run that amplifies small differences (Adam with minibatches, bf16) can end visibly apart. The same arithmetic, rounded differently: not another model</source>
        <translation>编译模式会融合算子，并以另一种顺序做加法：它最初几个轮次与 eager 的结果相差约 1e-6，但会放大微小差异的运行（Adam 加小批量、bf16）最后可能明显不同。这是同样的算术，只是舍入不同：不是另一个模型</translation>
    </message>
    <message>
        <source>cannot write {path}: {reason}</source>
        <translation>无法写入 {path}：{reason}</translation>
    </message>
    <message>
        <source>no file given: an empty path</source>
        <translation>没有给出文件：路径为空</translation>
    </message>
    <message>
        <source>{path} is held open by another program (close it there), so it is as it was; the new content is in {kept}</source>
        <translation>{path} 正被另一个程序打开（请在那里关闭它），所以它保持原样；新内容在 {kept} 中</translation>
    </message>
    <message>
        <source>{path} had {count} other hard link(s): they keep the old content, and {path} is now a file of its own</source>
        <translation>{path} 另有 {count} 个硬链接：它们保留旧内容，{path} 现在是一个独立的文件</translation>
    </message>
    <message>
        <source>eager: op by op</source>
        <translation>eager：逐个算子</translation>
    </message>
    <message>
        <source>Eager step (op by op)</source>
        <translation>eager 步骤（逐个算子）</translation>
    </message>
    <message>
        <source>compiled: torch.compile</source>
        <translation>compiled：整步由 torch.compile 编译</translation>
    </message>
    <message>
        <source>Compiled step (torch.compile, compiled before it was profiled)</source>
        <translation>编译后的步骤（torch.compile，剖析前已编译）</translation>
    </message>
    <message>
        <source>Compiling the step (torch.compile) on {device} before the clock starts: seconds, more the first time…</source>
        <translation>计时开始前，正在 {device} 上编译这一步（torch.compile）：需要几秒，第一次更久……</translation>
    </message>
    <message>
        <source>the compiled step needs a C++ compiler for the CPU, and none was found here (on Windows, Visual Studio&apos;s Build Tools; on macOS, xcode-select --install; on Linux, g++): use eager</source>
        <translation>编译的一步在 CPU 上需要 C++ 编译器，而这里没有找到（Windows 上请安装 Visual Studio 生成工具；macOS 上运行 xcode-select --install；Linux 上安装 g++）：请使用 eager</translation>
    </message>
    <message>
        <source>the compiled step needs Triton for a CUDA GPU, and this PyTorch has none (on Windows, pip install triton-windows): use graph or eager</source>
        <translation>编译的一步在 CUDA GPU 上需要 Triton，而这个 PyTorch 没有（Windows 上运行 pip install triton-windows）：请使用 graph 或 eager</translation>
    </message>
    <message>
        <source>the compile (torch.compile cannot be interrupted)</source>
        <translation>编译（torch.compile 无法中断）</translation>
    </message>
    <message>
        <source>compiling the step {seconds} s</source>
        <translation>编译这一步 {seconds} s</translation>
    </message>
    <message>
        <source>compiling the step {seconds} s, not as one graph: {why}</source>
        <translation>编译这一步 {seconds} s，不是单个图：{why}</translation>
    </message>
    <message>
        <source>graph: captured CUDA graph</source>
        <translation>graph：捕获的 CUDA 图</translation>
    </message>
    <message>
        <source>Graph step (captured in CUDA graphs, {replay} epochs a replay)</source>
        <translation>graph 步骤（捕获为 CUDA 图，每次重放 {replay} 轮）</translation>
    </message>
    <message>
        <source>the graph step captures a CUDA graph, and {device} has none: use compiled or eager there</source>
        <translation>graph 步骤要捕获 CUDA 图，而 {device} 没有：请在那里使用 compiled 或 eager</translation>
    </message>
    <message>
        <source>the graph step captures the full batch: a minibatch&apos;s shuffle and gather would have to be captured too, which gpudemo does not do yet. Set the batch size to 0 (the full batch), or use the compiled step</source>
        <translation>graph 步骤捕获的是全批量：小批量的打乱和取样也得一起捕获，gpudemo 还不这样做。请把批量设为 0（全批量），或使用 compiled 步骤</translation>
    </message>
    <message>
        <source>fp16&apos;s GradScaler reads its overflow check back to the host at every step, which a CUDA graph cannot capture: use bf16 (no scaler) or the compiled step</source>
        <translation>fp16 的 GradScaler 每一步都要把溢出检查读回主机，CUDA 图无法捕获这一点：请使用 bf16（不需要缩放器）或 compiled 步骤</translation>
    </message>
    <message>
        <source>write decimals with a point ({example}), not a comma: {value} is ambiguous</source>
        <translation>小数请用小数点（{example}），不要用逗号：{value} 有歧义</translation>
    </message>
    <message>
        <source>guess one of {choices}, not {value}</source>
        <translation>请猜 {choices} 中的一个，而不是 {value}</translation>
    </message>
    <message>
        <source>guess a percentage from 0 to 100, not {value}</source>
        <translation>请猜一个 0 到 100 之间的百分比，而不是 {value}</translation>
    </message>
    <message>
        <source>guess a ratio from 0.01 to 1000 (2 or 2x: twice), not {value}</source>
        <translation>请猜一个 0.01 到 1000 之间的倍数（2 或 2x：两倍），而不是 {value}</translation>
    </message>
    <message>
        <source>{points} points</source>
        <translation>{points} 个百分点</translation>
    </message>
    <message>
        <source>about right</source>
        <translation>大致准确</translation>
    </message>
    <message>
        <source>x{factor} too high</source>
        <translation>高了 {factor} 倍</translation>
    </message>
    <message>
        <source>x{factor} too low</source>
        <translation>低了 {factor} 倍</translation>
    </message>
    <message>
        <source>a matmul sweep times one matrix product, not a training step: a step mode ({step}) is for the step sweep</source>
        <translation>矩阵乘法扫描计时的是一次矩阵乘积，而不是一个训练步：步模式（{step}）只用于训练步扫描</translation>
    </message>
    <message>
        <source>fp16&apos;s GradScaler decides on the host whether each step is taken, so the step is compiled in regions with the scaler between them</source>
        <translation>fp16 的 GradScaler 在主机上决定每一步是否执行，所以这一步被分成几个区域编译，区域之间是 scaler</translation>
    </message>
    <message>
        <source>a data-parallel model all-reduces its gradients in the backward&apos;s hooks, so the step is compiled in regions with the all-reduce between them</source>
        <translation>数据并行的模型在反向传播的钩子里做梯度 all-reduce，所以这一步被分成几个区域编译，区域之间是 all-reduce</translation>
    </message>
    <message>
        <source>this optimizer&apos;s update is not written out for one graph</source>
        <translation>这个优化器的更新还没有写成单图形式</translation>
    </message>
    <message>
        <source>the CPU has no energy counter here: no {root} (a virtual machine, a container without it, or a kernel or CPU without RAPL)</source>
        <translation>这里的 CPU 没有能耗计数器：没有 {root}（虚拟机、没有挂载它的容器，或者不支持 RAPL 的内核或 CPU）</translation>
    </message>
    <message>
        <source>the CPU has no RAPL package counter under {root}</source>
        <translation>{root} 下没有 CPU 的 RAPL 封装计数器</translation>
    </message>
    <message>
        <source>the CPU&apos;s energy counter {path} is readable by root only (Linux 5.10 and newer, CVE-2020-8694): allow it until the next boot with `sudo chmod o+r /sys/class/powercap/intel-rapl:*/energy_uj`, or run gpudemo as root</source>
        <translation>CPU 的能耗计数器 {path} 只有 root 能读（Linux 5.10 起，CVE-2020-8694）：用 `sudo chmod o+r /sys/class/powercap/intel-rapl:*/energy_uj` 放开到下次开机，或者以 root 运行 gpudemo</translation>
    </message>
    <message>
        <source>the CPU&apos;s energy counter {path} stopped answering</source>
        <translation>CPU 的能耗计数器 {path} 不再响应</translation>
    </message>
    <message>
        <source>the GPU&apos;s energy counter is read through NVML: install nvidia-ml-py (pip install nvidia-ml-py) where NVIDIA&apos;s driver is</source>
        <translation>GPU 的能耗计数器要通过 NVML 读取：在装有 NVIDIA 驱动的机器上安装 nvidia-ml-py（pip install nvidia-ml-py）</translation>
    </message>
    <message>
        <source>{device} has no energy counter NVML can read (Volta and newer have one): {reason}</source>
        <translation>{device} 没有 NVML 能读的能耗计数器（Volta 及更新的 GPU 才有）：{reason}</translation>
    </message>
    <message>
        <source>{device}&apos;s energy counter stopped answering: {reason}</source>
        <translation>{device} 的能耗计数器不再响应：{reason}</translation>
    </message>
    <message>
        <source>{device} has no energy counter gpudemo can read</source>
        <translation>{device} 没有 gpudemo 能读的能耗计数器</translation>
    </message>
    <message>
        <source>the energy counter of {device} did not move in {seconds} s: it cannot meter this</source>
        <translation>{device} 的能耗计数器在 {seconds} 秒内没有变化：它量不了这个</translation>
    </message>
    <message>
        <source>stopped while it was metered</source>
        <translation>计量时被停止</translation>
    </message>
    <message>
        <source>the loss is growing: {latest} at epoch {epoch}, {times} times its lowest ({lowest} at epoch {low_epoch}); the learning rate {lr} is too large for this data: try a smaller one</source>
        <translation>损失正在增大：第 {epoch} 轮为 {latest}，是其最低值（第 {low_epoch} 轮的 {lowest}）的 {times} 倍；学习率 {lr} 对这些数据来说太大：请尝试更小的学习率</translation>
    </message>
    <message>
        <source>{steps} steps of {problem} on {device}, after {warm} that were not profiled.</source>
        <translation>{problem} 在 {device} 上的 {steps} 步，之前有 {warm} 步未被剖析。</translation>
    </message>
    <message>
        <source>On the Apple GPU (MPS), torch.profiler sees the CPU encoding Metal&apos;s commands, not the GPU&apos;s own time: the figures below are the CPU&apos;s side of the step, and say nothing of how busy the GPU was.</source>
        <translation>在 Apple GPU（MPS）上，torch.profiler 看到的是 CPU 编码 Metal 命令的过程，而不是 GPU 自己的时间：下面的数字是这一步在 CPU 一侧的情况，说明不了 GPU 有多忙。</translation>
    </message>
    <message>
        <source>The GPU computes {share} of the step and waits for the CPU the rest: the step is too small to pay for its launches; more samples per step (or a bigger model) would.</source>
        <translation>GPU 在这一步中只有 {share} 的时间在计算，其余时间在等 CPU：这一步太小，抵不上启动开销；每步更多样本（或更大的模型）才划算。</translation>
    </message>
    <message>
        <source>The GPU computes {share} of the step: the arithmetic dominates, as a GPU likes it.</source>
        <translation>GPU 在这一步中有 {share} 的时间在计算：运算占主导，这正是 GPU 擅长的。</translation>
    </message>
    <message>
        <source>Per step: {cpu} µs on the CPU side to issue it, {device} µs of GPU work in {kernels} kernels; {wall} µs from start to the GPU done; {waiting} µs of it the CPU waited for the GPU (not work).</source>
        <translation>每步：CPU 一侧下发用 {cpu} µs，GPU 在 {kernels} 个核函数中工作 {device} µs；从开始到 GPU 完成共 {wall} µs，其中 CPU 等待 GPU {waiting} µs（不是工作）。</translation>
    </message>
    <message>
        <source>Honest timing: without torch.cuda.synchronize() a step seems to take {unsynced} µs, with it {synced} µs. Without it the clock stops when the CPU has queued the work, not when the GPU has done it: {times}× too fast.</source>
        <translation>诚实的计时：不调用 torch.cuda.synchronize() 时，一步看起来要 {unsynced} µs，调用后是 {synced} µs。不同步时，时钟在 CPU 把工作排进队列时就停了，而不是在 GPU 做完时：快了 {times} 倍，是假的。</translation>
    </message>
    <message>
        <source>An operator takes {each} µs: its fixed cost, not arithmetic. A GPU&apos;s kernel launch costs about as much, so a GPU cannot make this step faster.</source>
        <translation>一个算子用 {each} µs：这是它的固定开销，而不是运算。GPU 启动一个核函数的开销也差不多，所以 GPU 无法让这一步更快。</translation>
    </message>
    <message>
        <source>An operator takes {each} µs: the arithmetic dominates, and a GPU, which does it in parallel, would make this step faster.</source>
        <translation>一个算子用 {each} µs：运算占主导，能并行运算的 GPU 会让这一步更快。</translation>
    </message>
    <message>
        <source>Per step: {wall} µs on the CPU, timed alone; under the profiler, {device} µs inside {kernels} PyTorch operator calls ({each} µs each, the profiler&apos;s own cost included).</source>
        <translation>每一步：单独计时，CPU 上 {wall} µs；在剖析器下，{kernels} 次 PyTorch 算子调用内共 {device} µs（每次 {each} µs，含剖析器自身的开销）。</translation>
    </message>
    <message>
        <source>{mode}: {launches} launches a step, {each} µs of the host&apos;s time each.</source>
        <translation>{mode}：每步启动 {launches} 次，每次花费主机 {each} µs。</translation>
    </message>
    <message>
        <source>{mode}: {calls} operator calls a step, {each} µs of the CPU&apos;s time each.</source>
        <translation>{mode}：每步 {calls} 次算子调用，每次占 CPU {each} µs。</translation>
    </message>
    <message>
        <source>Compiled regions entered a step: {regions}; graph breaks: {breaks}.</source>
        <translation>每步进入的编译区域：{regions}；图中断：{breaks}。</translation>
    </message>
    <message>
        <source>The timeline of one step ({step} µs): operators on the CPU above, the kernels they launched on the GPU below, a line from each operator to its kernel. The GPU was busy {share} of the step; in the gaps it waited for the CPU&apos;s next launch.</source>
        <translation>一步的时间线（{step} µs）：上方是 CPU 上的算子，下方是它们在 GPU 上启动的核函数，每个算子与它的核函数之间连一条线。GPU 在这一步中有 {share} 的时间在忙；空隙中它在等待 CPU 的下一次启动。</translation>
    </message>
    <message>
        <source>The timeline of one step ({step} µs) on the CPU, which has no device row: the CPU spent {share} of it inside PyTorch&apos;s operators (nested ones drawn higher) and the rest between them: Python, PyTorch&apos;s dispatch, and whatever else held the cores (another program, the profiler itself).</source>
        <translation>CPU 上一步（{step} µs）的时间线，没有设备行：CPU 把其中 {share} 的时间花在 PyTorch 的算子内部（嵌套的画得更高），其余时间在算子之间：Python、PyTorch 的分派，以及占用这些核心的其他事情（别的程序、剖析器本身）。</translation>
    </message>
    <message>
        <source>{device} does not beat the CPU at any size measured.</source>
        <translation>在所测的任何规模上，{device} 都没有胜过 CPU。</translation>
    </message>
    <message>
        <source>{device} beats the CPU from {size} on.</source>
        <translation>{device} 从规模 {size} 起胜过 CPU。</translation>
    </message>
    <message>
        <source>Only the CPU was measured: with a GPU listed, the sweep shows where it overtakes.</source>
        <translation>只测了 CPU：若列出了 GPU，扫描会显示它从哪里开始反超。</translation>
    </message>
    <message>
        <source>{device}: the {step} step cannot run there, so it ran eager beside the others.</source>
        <translation>{device}：{step} 步骤无法在那里运行，因此它与其他设备并列以 eager 方式运行。</translation>
    </message>
    <message>
        <source>Stopped before the end.</source>
        <translation>在结束前停止。</translation>
    </message>
    <message>
        <source>The machine was busy: the CPU&apos;s figures at {sizes} are too slow, {ratio}x slower than on one thread (another program took a core, and torch&apos;s threads waited for each other at every step). Close other programs and sweep again.</source>
        <translation>机器正忙：CPU 在 {sizes} 处的数字偏慢，比单线程慢 {ratio} 倍（另一个程序占用了一个核心，torch 的线程在每一步都互相等待）。请关闭其他程序后再扫描一次。</translation>
    </message>
    <message>
        <source>{device} does not use less energy per epoch than the CPU at any size metered.</source>
        <translation>在计量的任何规模下，{device} 每轮的能耗都不低于 CPU。</translation>
    </message>
    <message>
        <source>{device} uses less energy per epoch than the CPU from {size} on.</source>
        <translation>从 {size} 起，{device} 每轮的能耗低于 CPU。</translation>
    </message>
    <message>
        <source>{device}&apos;s energy not metered: {reason}.</source>
        <translation>{device} 的能耗未计量：{reason}。</translation>
    </message>
    <message>
        <source>published figures</source>
        <translation>公布的数字</translation>
    </message>
    <message>
        <source>measured here</source>
        <translation>在本机测量</translation>
    </message>
    <message>
        <source>Roofline of {device} ({source}): {flops} GFLOP/s at most, {bandwidth} GB/s from memory; a step with fewer than {ridge} operations per byte cannot reach the peak whatever the device. At {size} this step does {intensity} per byte and reaches {share} of the roof above it.</source>
        <translation>{device} 的屋顶线（{source}）：最多 {flops} GFLOP/s，内存带宽 {bandwidth} GB/s；每字节运算少于 {ridge} 次的一步，无论在什么设备上都达不到峰值。在规模 {size} 时，这一步每字节做 {intensity} 次运算，达到其上方屋顶的 {share}。</translation>
    </message>
    <message>
        <source>its {key} must be a line of text of at most {most} characters</source>
        <translation>其中的 {key} 必须是一行不超过 {most} 个字符的文本</translation>
    </message>
    <message>
        <source>it is larger than {size} KiB: not a result file</source>
        <translation>它大于 {size} KiB：不是结果文件</translation>
    </message>
    <message>
        <source>it is not JSON</source>
        <translation>它不是 JSON</translation>
    </message>
    <message>
        <source>it is not the measurements notebook&apos;s result file</source>
        <translation>它不是测量笔记本的结果文件</translation>
    </message>
    <message>
        <source>it is of a version this gpudemo does not read</source>
        <translation>它的版本是这个 gpudemo 无法读取的</translation>
    </message>
    <message>
        <source>its date is not a date (YYYY-MM-DD)</source>
        <translation>其中的日期不是日期（YYYY-MM-DD）</translation>
    </message>
    <message>
        <source>its figures must be an object of {keys}</source>
        <translation>其中的 figures 必须是由 {keys} 组成的对象</translation>
    </message>
    <message>
        <source>its figure {key} must be a number from {low} to {high}, or null</source>
        <translation>其中的数值 {key} 必须是 {low} 到 {high} 之间的数，或 null</translation>
    </message>
    <message>
        <source>it cannot be read: {reason}</source>
        <translation>它无法读取：{reason}</translation>
    </message>
    <message>
        <source>it is not text (UTF-8)</source>
        <translation>它不是文本（UTF-8）</translation>
    </message>
</context>
<context>
    <name>script</name>
    <message>
        <source># gpudemo: the PyTorch script behind this run.</source>
        <translation># gpudemo：这次训练背后的 PyTorch 脚本。</translation>
    </message>
    <message>
        <source># Run it with only torch installed: python {filename}</source>
        <translation># 只需安装 torch 即可运行：python {filename}</translation>
    </message>
    <message>
        <source># 1. The device: {wanted} when torch can see it, else the CPU.</source>
        <translation># 1. 设备：torch 能看到 {wanted} 时用它，否则用 CPU。</translation>
    </message>
    <message>
        <source># 1. The device: {wanted}. The graph step captures CUDA graphs, which only a CUDA GPU has.</source>
        <translation># 1. 设备：{wanted}。graph 步骤要捕获 CUDA 图，只有 CUDA GPU 才有。</translation>
    </message>
    <message>
        <source># 1. The device: the CPU. For a GPU, write
#    torch.device(&quot;cuda&quot; if torch.cuda.is_available() else &quot;cpu&quot;)</source>
        <translation># 1. 设备：CPU。要用 GPU，写成
#    torch.device(&quot;cuda&quot; if torch.cuda.is_available() else &quot;cpu&quot;)</translation>
    </message>
    <message>
        <source>#    Same seed, same starting weights, same run.</source>
        <translation>#    同样的种子，同样的初始权重，同样的训练。</translation>
    </message>
    <message>
        <source># 2. Model, data and loss on that device; then the optimizer.</source>
        <translation># 2. 把模型、数据和损失放到这个设备上；然后建优化器。</translation>
    </message>
    <message>
        <source>#    The data is drawn on the CPU from the seed, then moved: the same numbers on every device.</source>
        <translation>#    数据由种子在 CPU 上生成，再移动到设备：每个设备上的数值都相同。</translation>
    </message>
    <message>
        <source>#    Each epoch&apos;s shuffle is drawn on the device, from the seed.</source>
        <translation>#    每个轮次的打乱顺序由种子在设备上生成。</translation>
    </message>
    <message>
        <source># 3. Train: {epochs} epochs of forward, loss, backward, step.</source>
        <translation># 3. 训练：{epochs} 轮前向、损失、反向、更新。</translation>
    </message>
    <message>
        <source># 3. Train: {epochs} epochs; each one passes over the data in shuffled batches of {batch},
#    and its loss is the mean over its batches (added up on the device: no sync).</source>
        <translation># 3. 训练：{epochs} 轮；每一轮按打乱的批次（每批 {batch} 个）遍历数据，
#    该轮的损失是各批损失的平均（在设备上累加：无需同步）。</translation>
    </message>
    <message>
        <source>#    The whole step compiled by torch.compile on its first call (on a GPU, replayed as CUDA graphs).</source>
        <translation>#    整个步骤在第一次调用时由 torch.compile 编译（在 GPU 上以 CUDA 图重放）。</translation>
    </message>
    <message>
        <source>#    The whole step as one graph: forward, loss, gradients and the optimizer&apos;s update in one function
#    that torch.compile traces without a break (fullgraph=True), compiled on its first call (on a GPU,
#    replayed as one CUDA graph a step). loss.backward() and optimizer.step() would each break it.</source>
        <translation>#    整个一步是一个图：前向、损失、梯度和优化器的更新都在一个函数里，
#    torch.compile 不中断地追踪它（fullgraph=True），第一次调用时编译（在 GPU 上
#    每步重放一个 CUDA 图）。loss.backward() 和 optimizer.step() 都会把图打断。</translation>
    </message>
    <message>
        <source># 3. Train: {epochs} epochs, the step captured once in a CUDA graph, then replayed:
#    {replay} epochs per launch, each epoch&apos;s loss written into a buffer on the GPU.</source>
        <translation># 3. 训练：{epochs} 个轮次，这一步先捕获为 CUDA 图，然后重放：
#    每次启动 {replay} 个轮次，每个轮次的损失写入 GPU 上的缓冲区。</translation>
    </message>
    <message>
        <source>#    A few steps on a side stream first (they make the optimizer&apos;s state and cuBLAS&apos;s workspace),
#    then back to the starting weights and a fresh optimizer, in place: the capture needs fixed tensors.</source>
        <translation>#    先在旁路流上走几步（它们创建优化器的状态和 cuBLAS 的工作区），
#    再原地恢复到初始权重和全新的优化器：捕获需要固定的张量。</translation>
    </message>
    <message>
        <source># 4. Bring the model back to the CPU.</source>
        <translation># 4. 把模型取回 CPU。</translation>
    </message>
    <message>
        <source># 5. Predict on the CPU for new x.</source>
        <translation># 5. 在 CPU 上对新的 x 做预测。</translation>
    </message>
    <message>
        <source># 5. Classify new points on the CPU: each class&apos;s probability.</source>
        <translation># 5. 在 CPU 上对新的点分类：每个类别的概率。</translation>
    </message>
    <message>
        <source># 5. Recognise test images on the CPU: the class and the true one.</source>
        <translation># 5. 在 CPU 上识别测试图像：预测的类别和真实类别。</translation>
    </message>
    <message>
        <source># gpudemo: the data-parallel PyTorch script behind this run.</source>
        <translation># gpudemo：这次训练背后的数据并行 PyTorch 脚本。</translation>
    </message>
    <message>
        <source># Run it on {workers} workers: torchrun --nproc-per-node {workers} {filename}</source>
        <translation># 在 {workers} 个工作进程上运行：torchrun --nproc-per-node {workers} {filename}</translation>
    </message>
    <message>
        <source># On Windows: set USE_LIBUV=0 first (its PyTorch has no libuv); torchrun there is best effort, WSL2 works.</source>
        <translation># 在 Windows 上：先设置 USE_LIBUV=0（那里的 PyTorch 没有 libuv）；torchrun 在那里只是尽力而为，WSL2 可以运行。</translation>
    </message>
    <message>
        <source># 1. torchrun starts one process per worker; each joins the group and learns its rank.</source>
        <translation># 1. torchrun 为每个工作进程启动一个进程；每个进程加入进程组并得知自己的编号（rank）。</translation>
    </message>
    <message>
        <source># 2. Every worker builds the same model and data from the seed...</source>
        <translation># 2. 每个工作进程由种子构建同样的模型和数据……</translation>
    </message>
    <message>
        <source>#    ...and keeps its shard, as DistributedSampler deals them (the last shards padded from the start).</source>
        <translation>#    ……并按 DistributedSampler 的分法保留自己那一份（最后几份用开头的样本补齐）。</translation>
    </message>
    <message>
        <source># 3. DDP all-reduces the gradients in backward: every worker takes the same step.</source>
        <translation># 3. DDP 在反向传播中对梯度做 all-reduce：每个工作进程走同样的一步。</translation>
    </message>
    <message>
        <source># 4. Train: {epochs} epochs, each worker on its shard.</source>
        <translation># 4. 训练：{epochs} 轮，每个工作进程在自己那一份数据上训练。</translation>
    </message>
    <message>
        <source># 5. The run&apos;s loss is the mean of the workers&apos; losses.</source>
        <translation># 5. 这次训练的损失是各工作进程损失的平均值。</translation>
    </message>
    <message>
        <source>gpudemo: the PyTorch behind a run</source>
        <translation>gpudemo：一次运行背后的 PyTorch</translation>
    </message>
    <message>
        <source>The same run as `{command}`. Run the cells from the top (Run all): they need only PyTorch, which hosted notebooks have, and print what that command prints on the same device. On a hosted notebook with a GPU (Colab: Runtime, Change runtime type, a GPU), a notebook made for the device cuda trains there.</source>
        <translation>与 `{command}` 相同的运行。从头运行各单元格（全部运行）：它们只需要 PyTorch（托管笔记本都已安装），并在同一设备上打印出该命令打印的内容。在带 GPU 的托管笔记本上（Colab：代码执行程序、更改运行时类型、选择 GPU），为 cuda 设备生成的笔记本会在那里训练。</translation>
    </message>
</context>
</TS>
