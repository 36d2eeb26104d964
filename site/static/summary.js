export function streak(days,today){const set=new Set(days);let d=set.has(today)?today:today-1,n=0;while(set.has(d)){n++;d--;}
return n;}
export function bestStreak(days){const set=new Set(days);let best=0;for(const d of set){if(set.has(d-1))continue;let n=1;while(set.has(d+n))n++;best=Math.max(best,n);}
return best;}
export function overPar(progress,pars){const out=[0,0,0,0,0,0];for(const[id,e]of Object.entries(progress.levels)){if(!id.startsWith("d-")||!e.stars||!Object.hasOwn(pars,id))continue;out[e.best==null?5:Math.min(4,Math.max(0,e.best-pars[id]))]++;}
return out;}
export function summary(progress,worlds,pars,today){const per=worlds.map((w)=>{let stars=0,solved=0,atPar=0;for(const[id,e]of Object.entries(progress.levels)){if(!id.startsWith(`w${w.n}-`))continue;stars+=e.stars;if(e.stars>0)solved++;if(e.best!=null&&Object.hasOwn(pars,id)&&pars[id]!=null&&e.best<=pars[id])atPar++;}
return{n:w.n,stars,solved,levels:w.levels,atPar};});const dailies=Object.keys(progress.levels).filter((id)=>id.startsWith("d-")).length;return{worlds:per,stars:per.reduce((a,w)=>a+w.stars,0),solved:per.reduce((a,w)=>a+w.solved,0),dailies,streak:streak(progress.days,today),bestStreak:bestStreak(progress.days),overPar:overPar(progress,pars),};}
